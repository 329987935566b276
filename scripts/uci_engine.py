"""A minimal UCI engine driver for the measurement scripts in this folder
(no python-chess needed): start the engine, send lines, read until a line
starts with a prefix, run one search and keep its last `info` line."""
import subprocess


class UciEngine:
    """One engine process spoken to over UCI."""

    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)

    def send(self, line):
        """Sends one command line."""
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, prefix):
        """Reads lines until one starts with `prefix` and returns it."""
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit("engine exited")
            if line.startswith(prefix):
                return line

    def sync(self):
        """Sends `isready` and waits for `readyok`."""
        self.send("isready")
        self.wait_for("readyok")

    def search(self, go, keep=" score "):
        """Sends `go`, reads until `bestmove`; returns the split tokens of the
        last `info depth` line that contains `keep` (None if there was none)."""
        self.send(go)
        last = None
        while True:
            line = self.wait_for("")
            if line.startswith("info depth") and keep in line:
                last = line.split()
            if line.startswith("bestmove"):
                return last

    def quit(self):
        """Sends `quit` and waits for the process to end."""
        self.send("quit")
        self.proc.wait(timeout=30)
