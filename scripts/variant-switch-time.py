#!/usr/bin/env python3
"""How long choosing a variant takes and what memory it costs: for each
engine binary and variant, the time from `setoption name UCI_Variant` to
`readyok` (5 runs) and the process's resident memory afterwards (from
/proc, so Linux only). Speed goes here, not into tests.

    python3 scripts/variant-switch-time.py target/release/rukav [OTHER_BINARY ...]
"""
import subprocess
import sys
import time

VARIANTS = ["chess", "crazyhouse", "antichess", "giveaway"]
RUNS = 5


def switch(binary, variant):
    p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def ready():
        p.stdin.write("isready\n")
        p.stdin.flush()
        while p.stdout.readline().strip() != "readyok":
            pass

    p.stdin.write("uci\n")
    ready()
    start = time.time()
    p.stdin.write(f"setoption name UCI_Variant value {variant}\n")
    ready()
    elapsed = time.time() - start
    with open(f"/proc/{p.pid}/status") as f:
        rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS"))
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait()
    return elapsed, rss


def main():
    for binary in sys.argv[1:]:
        for variant in VARIANTS:
            runs = [switch(binary, variant) for _ in range(RUNS)]
            ms = [round(t * 1000) for t, _ in runs]
            print(f"{binary} {variant}: setoption to readyok {ms} ms, RSS {runs[-1][1]} kB")


if __name__ == "__main__":
    main()
