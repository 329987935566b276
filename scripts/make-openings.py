#!/usr/bin/env python3
"""Writes an opening file for matches (EPD/FEN lines, as match.py reads them)
from random plies, judged by the engine itself, so that SPRT runs have more
distinct openings than a small book (with fixed-node searches every repeated
opening pair would repeat its games exactly).

    python3 scripts/make-openings.py --variant crazyhouse --count 4000 --out zh-openings.epd

Each opening: the start position, then PLIES random legal moves (one more in
half of them, as `rukav datagen` does), kept when the game is not over, the
position is new, and `go nodes NODES` scores it within +-LIMIT centipawns.
Needs python-chess; the engine is target/release/rukav unless --engine says.
"""
import argparse
import random

import chess
import chess.variant

from uci_engine import UciEngine

BOARDS = {
    "crazyhouse": chess.variant.CrazyhouseBoard,
    "antichess": chess.variant.AntichessBoard,
    "giveaway": chess.variant.GiveawayBoard,
    "chess": chess.Board,
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", default="crazyhouse", choices=sorted(BOARDS))
    ap.add_argument("--count", type=int, default=4000)
    ap.add_argument("--plies", type=int, default=8)
    ap.add_argument("--nodes", type=int, default=20000)
    ap.add_argument("--limit", type=int, default=150)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--engine", default="target/release/rukav")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="a UCI option for the judging engine (repeatable), e.g. "
                         "'Use NNUE=false' for multi-variant Stockfish")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    eng = UciEngine(args.engine)
    send = eng.send

    def score(fen):
        send("position fen " + fen)
        last = eng.search(f"go nodes {args.nodes}")
        if last is None:
            return None
        i = last.index("score")
        kind, value = last[i + 1], int(last[i + 2])
        return value if kind == "cp" else 100000

    for option in args.option:
        name, sep, value = option.partition("=")
        if not sep:
            ap.error(f"--option {option!r}: expected NAME=VALUE")
        send(f"setoption name {name} value {value}")
    uci_variant = {"giveaway": "giveaway"}.get(args.variant, args.variant)
    send(f"setoption name UCI_Variant value {uci_variant}")
    seen = set()
    out = []
    tries = 0
    while len(out) < args.count:
        tries += 1
        board = BOARDS[args.variant]()
        plies = args.plies + rng.randrange(2)
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            board.push(rng.choice(moves))
        if board.is_game_over() or len(board.move_stack) < plies:
            continue
        fen = board.fen()
        key = " ".join(fen.split()[:4])
        if key in seen:
            continue
        seen.add(key)
        s = score(fen)
        if s is not None and abs(s) <= args.limit:
            out.append(fen)
    eng.quit()
    with open(args.out, "w") as f:
        f.write(f"# {args.variant} openings: {len(out)} positions, {args.plies}-{args.plies + 1} random plies "
                f"from the start, |score| <= {args.limit} cp at {args.nodes} nodes by {args.engine}"
                f"{' (' + ', '.join(args.option) + ')' if args.option else ''}; "
                f"seed {args.seed}; {tries} drawn\n")
        for fen in out:
            f.write(fen + "\n")
    print(f"{len(out)} openings written to {args.out} ({tries} drawn)")


if __name__ == "__main__":
    main()
