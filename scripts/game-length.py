#!/usr/bin/env python3
"""How an engine's score in a match depends on the length of the game, and
where its lost long games turned: from match.py PGNs (move comments
`score/depth 0.52s`), the engine's score by band of plies played, and, for
each lost game of at least --long plies, the ply at which the opponent's own
score first reached --turn pawns (searched deeper than one ply) with the
pieces on the board then; the medians of both.

    python3 scripts/game-length.py exam.pgn [more.pgn ...] --engine rukav
"""
import argparse
import re
import statistics

import chess.pgn

SCORE = re.compile(r"\s*([+-]?)(M?)(\d+(?:\.\d+)?)/(\d+)")
BAND = 20


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--engine", default="rukav", help="the engine's name in the PGN headers")
    ap.add_argument("--long", type=int, default=120, help="a long game has this many plies or more")
    ap.add_argument("--turn", type=float, default=3.0, help="pawns of the opponent's score")
    args = ap.parse_args()
    by_band = {}
    turns = []
    for path in args.pgn:
        with open(path, encoding="utf-8") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                if args.engine not in (game.headers["White"], game.headers["Black"]):
                    continue
                us = chess.WHITE if game.headers["White"] == args.engine else chess.BLACK
                points = {"1-0": 1.0, "0-1": 0.0}.get(game.headers["Result"], 0.5)
                if us == chess.BLACK:
                    points = 1.0 - points
                nodes = list(game.mainline())
                band = min(len(nodes) // BAND, args.long // BAND)
                by_band.setdefault(band, []).append(points)
                if points == 0.0 and len(nodes) >= args.long:
                    turns.append(turning_point(nodes, us, args.turn))
    for band in sorted(by_band):
        scores = by_band[band]
        label = f"{band * BAND}+" if band == args.long // BAND else f"{band * BAND}-{band * BAND + BAND - 1}"
        print(f"plies {label:8} {len(scores):5} games  score {sum(scores) / len(scores):.3f}")
    found = [t for t in turns if t is not None]
    print(f"lost games of {args.long}+ plies: {len(turns)}; the opponent's score reached "
          f"+{args.turn:g} in {len(found)}")
    if found:
        print(f"  median ply {statistics.median(t[0] for t in found)}, "
              f"median pieces on the board {statistics.median(t[1] for t in found)}")


def turning_point(nodes, us, turn):
    """(ply, pieces) where the opponent's own score first reached `turn`."""
    for ply, node in enumerate(nodes):
        mover = not node.board().turn
        m = SCORE.match(node.comment or "")
        if mover == us or not m or int(m.group(4)) <= 1:
            continue
        value = 1000.0 if m.group(2) else float(m.group(3))
        if m.group(1) == "-":
            value = -value
        if value >= turn:
            return ply + 1, len(node.board().piece_map())
    return None


if __name__ == "__main__":
    main()
