#!/usr/bin/env python3
"""Nodes per second against hash size and threads (a benchmark: run it on an
otherwise idle machine).

    python3 scripts/hash-speed.py [--engine target/release/rukav] [--seconds 3]

Searches 8 crazyhouse middlegames for SECONDS each with Hash 16 and Hash
1024, one thread and two, and prints the median nodes per second of each
setting with the two ratios the engine should keep: Hash 1024 at least 90%
of Hash 16, and two threads at Hash 1024 at least 1.7 times one thread.
"""
import argparse
import statistics
import sys

from uci_engine import UciEngine

POSITIONS = [
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R[] w KQkq - 4 4",
    "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1[] w - - 0 7",
    "r2qk2r/ppp2ppp/2n1bn2/3pp3/1b2P3/2NP1N2/PPPBBPPP/R2QK2R[Pp] w KQkq - 2 8",
    "r1b1k2r/ppppqppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R[] w KQkq - 1 6",
    "rnb1kb1r/ppp2ppp/4pn2/3q4/3P4/5N2/PPP2PPP/RNBQKB1R[Pp] w KQkq - 0 5",
    "r1bqk2r/ppp1bppp/2n5/3np3/8/2NP1NP1/PP2PPBP/R1BQK2R[Pp] w KQkq - 0 7",
    "r3k2r/ppp1qppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPP1QPPP/R3K2R[] w KQkq - 4 9",
    "2kr3r/pppq1ppp/2npbn2/2b1p3/2B1P1b1/2NPBN2/PPPQ1PPP/2KR3R[Pp] w - - 2 11",
]


def nps(engine, hash_mb, threads, seconds):
    e = UciEngine(engine)
    send, wait = e.send, e.wait_for
    send("uci")
    wait("uciok")
    send("setoption name UCI_Variant value crazyhouse")
    send(f"setoption name Hash value {hash_mb}")
    send(f"setoption name Threads value {threads}")
    results = []
    for fen in POSITIONS:
        send("ucinewgame")
        send("position fen " + fen)
        send("isready")
        wait("readyok")
        last = e.search(f"go movetime {seconds * 1000}", keep=" nps ")
        results.append(int(last[last.index("nps") + 1]))
    e.quit()
    return statistics.median(results), results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="target/release/rukav")
    ap.add_argument("--seconds", type=int, default=3)
    args = ap.parse_args()
    table = {}
    for hash_mb in (16, 1024):
        for threads in (1, 2):
            med, all_ = nps(args.engine, hash_mb, threads, args.seconds)
            table[(hash_mb, threads)] = med
            print(f"Hash {hash_mb:5d} Threads {threads}: median {med / 1000:7.0f} knps  "
                  f"({' '.join(str(x // 1000) for x in all_)})")
    big = table[(1024, 1)] / table[(16, 1)]
    smp = table[(1024, 2)] / table[(1024, 1)]
    print(f"Hash 1024 / Hash 16, one thread: {big:.2f} (want >= 0.90)")
    print(f"Threads 2 / Threads 1 at Hash 1024: {smp:.2f} (want >= 1.70)")
    return 0 if big >= 0.9 and smp >= 1.7 else 1


if __name__ == "__main__":
    sys.exit(main())
