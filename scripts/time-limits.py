#!/usr/bin/env python3
"""Measures whether the engine keeps its time limits (a benchmark, not a test:
timings depend on the machine and its load).

    python3 scripts/time-limits.py [--engine target/release/rukav] [--repeat 3]

For each case it sends `go ...` and measures the wall time until `bestmove`:
- `go movetime N` must use the whole time: N - Move Overhead .. N (+ a little);
- with Threads 64 and 256 (far more than the cores), `go wtime 2000 btime 2000`
  must answer before the clock runs out, and `go movetime 1000` near 1 s.
Prints one line per case with the times seen and PASS/FAIL against the bounds.
"""
import argparse
import sys
import time

from uci_engine import UciEngine as Engine

POSITIONS = [
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R[] w KQkq - 4 4",
    "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1[] w - - 0 7",
    "r2qk2r/ppp2ppp/2n1bn2/3pp3/1b2P3/2NP1N2/PPPBBPPP/R2QK2R[Pp] w KQkq - 2 8",
]


def timed_go(engine, fen, go):
    engine.send("ucinewgame")
    engine.send("position fen " + fen)
    engine.sync()
    start = time.monotonic()
    engine.send(go)
    engine.wait_for("bestmove")
    return time.monotonic() - start


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="target/release/rukav")
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    cases = [
        # (threads, go, low, high)
        (1, "go movetime 1000", 0.90, 1.10),
        (1, "go movetime 2000", 1.90, 2.10),
        (64, "go wtime 2000 btime 2000", 0.0, 2.0),
        (256, "go wtime 2000 btime 2000", 0.0, 2.0),
        (256, "go movetime 1000", 0.90, 1.25),
    ]
    failed = 0
    for threads, go, low, high in cases:
        e = Engine(args.engine)
        e.send("uci")
        e.wait_for("uciok")
        e.send("setoption name UCI_Variant value crazyhouse")
        e.send(f"setoption name Threads value {threads}")
        times = []
        for _ in range(args.repeat):
            for fen in POSITIONS:
                times.append(timed_go(e, fen, go))
        e.quit()
        ok = all(low <= t <= high for t in times)
        failed += not ok
        shown = " ".join(f"{t:.3f}" for t in times)
        print(f"{'PASS' if ok else 'FAIL'} Threads {threads:3d} {go:28s} "
              f"want {low:.2f}..{high:.2f} s, got {shown}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
