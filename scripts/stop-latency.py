#!/usr/bin/env python3
"""How fast does the engine answer `stop`? Starts `go infinite` on a few
positions, waits, sends `stop` and measures the time until `bestmove`.

Usage: python3 scripts/stop-latency.py [--engine target/release/rukav] [--threads 2] [--wait 0.5]
"""
import argparse, statistics, time

from uci_engine import UciEngine

POSITIONS = [
    ("crazyhouse", "startpos"),
    ("crazyhouse", "fen r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R[PNBRQpnbrq] w KQkq - 0 1"),
    ("chess", "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("antichess", "startpos"),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="target/release/rukav")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--wait", type=float, default=0.5)
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    e = UciEngine(a.engine)
    send, wait_for = e.send, e.wait_for

    send("uci"); wait_for("uciok")
    send(f"setoption name Threads value {a.threads}")
    lat = []
    for _ in range(a.repeat):
        for variant, pos in POSITIONS:
            send(f"setoption name UCI_Variant value {variant}")
            send(f"position {pos}")
            send("isready"); wait_for("readyok")
            send("go infinite")
            time.sleep(a.wait)
            t = time.perf_counter()
            send("stop")
            wait_for("bestmove")
            lat.append((time.perf_counter() - t) * 1000)
    e.quit()
    print(f"stop -> bestmove over {len(lat)} searches ({a.threads} threads): "
          f"median {statistics.median(lat):.2f} ms, max {max(lat):.2f} ms")


if __name__ == "__main__":
    main()
