#!/usr/bin/env python3
"""Bughouse (and other variants) under fairyfishtest, Fairy-Stockfish's own four-engine test bed:
four CECP engines, `holding` and `ptell` relayed, legality judged by pyffish. Not part of CI;
downloads nothing.

You need a fairyfishtest checkout (ianfab/fairyfishtest: a work tree, or a bare git directory as
the search tool's fetch gives) and pyffish (`pip install pyffish`). The checkout is exported into a
temporary folder; nothing in it changes.

    python3 scripts/fairyfishtest/run.py --fairyfishtest /path/to/fairyfishtest \\
        --engine1 target/release/rukav --engine2 target/release/rukav --games 20 --tc 30+0 \\
        [--variant bughouse] [--hang-seconds 60] [--log run.log]

engine1's team (board 1 seat and its partner) is the first engine; fairyfishtest counts W/L/D
for it. fairyfishtest itself waits for ever when an engine never answers (its hang); this script
watches its log and calls a game hung when no move was logged for --hang-seconds, kills the run,
counts the hang, and starts the remaining games afresh. It prints each game's end (time losses,
illegal moves as pyffish judged them, hangs) and the totals, and exits non-zero on any hang,
illegal move or loss on time (whose team lost on time is said apart).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import threading
import time


def export(source: str, target: str) -> str:
    """The fairyfishtest.py to run: from a work tree, or exported from a bare git directory."""
    if os.path.isfile(os.path.join(source, "fairyfishtest.py")):
        return os.path.join(source, "fairyfishtest.py")
    git_dir = source if os.path.isfile(os.path.join(source, "HEAD")) else os.path.join(source, ".git")
    text = subprocess.run(["git", f"--git-dir={git_dir}", "show", "HEAD:fairyfishtest.py"],
                          check=True, capture_output=True, text=True).stdout
    path = os.path.join(target, "fairyfishtest.py")
    with open(path, "w") as f:
        f.write(text)
    return path


class Run:
    """One fairyfishtest process, its log lines as they come, and a watchdog."""

    def __init__(self, cmd: list[str], log, hang_seconds: float):
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
        self.log = log
        self.hang_seconds = hang_seconds
        self.last_line = time.monotonic()
        self.lines: list[str] = []
        self.hung = False
        reader = threading.Thread(target=self.read, daemon=True)
        reader.start()

    def read(self) -> None:
        for line in self.proc.stdout:
            self.last_line = time.monotonic()
            self.lines.append(line.rstrip("\n"))
            self.log.write(line)
            self.log.flush()

    def wait(self) -> int:
        while self.proc.poll() is None:
            time.sleep(1)
            if time.monotonic() - self.last_line > self.hang_seconds:
                self.hung = True
                self.log.write(f"# run.py: no log line for {self.hang_seconds:.0f} s: hang; killing the run\n")
                self.proc.kill()
                subprocess.run(["pkill", "-P", str(self.proc.pid)], check=False)
                break
        return self.proc.wait()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fairyfishtest", required=True, help="fairyfishtest work tree or bare git directory")
    ap.add_argument("--engine1", required=True, help="team 1's engine (an executable, no arguments)")
    ap.add_argument("--engine2", required=True, help="team 2's engine")
    ap.add_argument("--variant", default="bughouse")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--tc", default="30+0", help="fairyfishtest's -t: seconds+increment")
    ap.add_argument("--hang-seconds", type=float, default=None,
                    help="no logged move for this long is a hang (default: twice the base time, at least 30)")
    ap.add_argument("--log", default="fairyfishtest.log", help="fairyfishtest's DEBUG log (appended)")
    args = ap.parse_args()
    base = float(args.tc.split("+")[0].split("/")[-1])
    hang_seconds = args.hang_seconds or max(30.0, 2 * base)

    temp = tempfile.mkdtemp(prefix="rukav-fairyfishtest-")
    script = export(args.fairyfishtest, temp)
    engines = [os.path.abspath(args.engine1), os.path.abspath(args.engine2)]
    totals = {"games": 0, "w": 0, "l": 0, "d": 0, "hangs": 0, "illegal": 0, "time_engine1": 0, "time_engine2": 0}
    events: list[str] = []
    with open(args.log, "a") as log:
        while totals["games"] + totals["hangs"] < args.games:
            left = args.games - totals["games"] - totals["hangs"]
            cmd = [sys.executable, "-u", script, *engines, "-v", args.variant, "-n", str(left), "-t", args.tc,
                   "-l", "DEBUG"]
            log.write(f"# run.py: {' '.join(cmd)}\n")
            run = Run(cmd, log, hang_seconds)
            rc = run.wait()
            games_before = totals["games"]
            w = l = d = 0
            # fairyfishtest's "Engine N loses on time." names the seat on that board (1: White),
            # and the partner board's thread repeats it: a game counts once, and the team that
            # lost it is the one whose engine flagged.
            flagged = illegal = False
            for line in run.lines:
                if m := re.match(r"Total: (\d+) W: (\d+) L: (\d+) D: (\d+)", line):
                    lost = int(m[3]) > l
                    w, l, d = int(m[2]), int(m[3]), int(m[4])
                    note = ""
                    if flagged:
                        team = "engine1" if lost else "engine2"
                        totals["time_" + team] += 1
                        note = f"; lost on time by {team}'s team"
                    if illegal:
                        totals["illegal"] += 1
                        note += "; an illegal move"
                    events.append(f"game {games_before + int(m[1])}: W {w} L {l} D {d} (this run){note}")
                    flagged = illegal = False
                elif "loses on time" in line:
                    flagged = True
                elif line.startswith("Illegal move"):
                    illegal = True
                    events.append(f"  {line.strip()}")
            totals["games"] += w + l + d
            totals["w"] += w
            totals["l"] += l
            totals["d"] += d
            if run.hung:
                totals["hangs"] += 1
                events.append(f"game {totals['games'] + totals['hangs']}: HANG (no move logged for "
                              f"{hang_seconds:.0f} s)")
            elif rc != 0:
                events.append(f"fairyfishtest exited {rc}; see {args.log}")
                break
    for e in events:
        print(e)
    n = totals["games"]
    score = (totals["w"] + totals["d"] / 2) / n if n else 0.0
    print(f"{args.variant} {args.tc}: {n} games finished, W {totals['w']} L {totals['l']} D {totals['d']} "
          f"({100 * score:.1f}% for engine1), hangs {totals['hangs']}, games with an illegal move {totals['illegal']}, "
          f"losses on time: engine1's team {totals['time_engine1']}, engine2's team {totals['time_engine2']}")
    return 1 if totals["hangs"] or totals["illegal"] or totals["time_engine1"] or totals["time_engine2"] else 0


if __name__ == "__main__":
    sys.exit(main())
