#!/usr/bin/env python3
"""How fast an engine sees forced antichess results: for each position of an
EPD (`FEN ; mate M`, M for the side to move), the nodes searched when the
engine first reports a mate score of the right sign (exact, not a bound).

    python3 scripts/forced-wins.py ./target/release/rukav [--cap 500000] [--epd scripts/antichess-forced.epd]

Prints how many it found within the cap and the geometric mean of the nodes
(a miss counts as twice the cap). One thread, Hash 64, a new game per
position, so a run is repeatable. Works with any UCI engine that speaks
`UCI_Variant antichess` (Fairy-Stockfish does). No python-chess needed.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uci_engine import UciEngine  # noqa: E402


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("engine")
    ap.add_argument("--cap", type=int, default=500000, help="nodes per position")
    ap.add_argument("--epd", default=os.path.join(here, "antichess-forced.epd"))
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    args = ap.parse_args()
    eng = UciEngine(args.engine)
    eng.send("uci")
    eng.wait_for("uciok")
    for kv in ["UCI_Variant=antichess", "Threads=1", "Hash=64"] + args.option:
        name, value = kv.split("=", 1)
        eng.send(f"setoption name {name} value {value}")
    eng.sync()
    logs, found = [], 0
    for line in open(args.epd):
        if not line.strip() or line.startswith("#"):
            continue
        fen, mate = line.split(" ; mate ")
        want_win = int(mate) > 0
        eng.send("ucinewgame")
        eng.send("position fen " + fen.strip())
        eng.send(f"go nodes {args.cap}")
        nodes = None
        while True:
            tokens = eng.wait_for("").split()
            if tokens and tokens[0] == "bestmove":
                break
            if nodes is None and "mate" in tokens and "nodes" in tokens \
                    and "lowerbound" not in tokens and "upperbound" not in tokens:
                if (int(tokens[tokens.index("mate") + 1]) > 0) == want_win:
                    nodes = int(tokens[tokens.index("nodes") + 1])
        found += nodes is not None
        logs.append(math.log(max(nodes if nodes is not None else 2 * args.cap, 1)))
    eng.quit()
    print(f"found {found}/{len(logs)}, geometric mean {math.exp(sum(logs) / len(logs)):.0f} nodes")


if __name__ == "__main__":
    main()
