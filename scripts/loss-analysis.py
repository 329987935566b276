#!/usr/bin/env python3
"""Where the losses of a match were decided: for each game the engine (`--name`, default rukav)
lost in a match.py PGN, the number of pieces on the board when the opponent first announced a
forced win (`+M` in its move comment), the ply of that announcement, and the engine's own score
on its move just before.

    python3 scripts/loss-analysis.py games.pgn [more.pgn ...]
"""
import argparse
import collections
import re

import chess.pgn

SCORE = re.compile(r"\s*([+-]?M?\d+(?:\.\d+)?)/")


def piece_band(pieces):
    if pieces <= 3:
        return "<=3"
    if pieces <= 6:
        return "4-6"
    return "7-12" if pieces <= 12 else "13+"


def score_band(score):
    if score is None:
        return "none"
    if "M" in score:
        return "mate"
    value = float(score)
    return "<=-3" if value <= -3 else "-3..-1" if value <= -1 else ">-1"


def analyse(path, name):
    bands = collections.Counter()
    own_scores = collections.Counter()
    announced_at = []
    losses = 0
    with open(path) as pgn:
        while (game := chess.pgn.read_game(pgn)) is not None:
            result = game.headers["Result"]
            engine_white = game.headers["White"] == name
            if result == "1/2-1/2" or (result == "1-0") == engine_white:
                continue
            losses += 1
            board = game.board()
            own_last = None
            for node in game.mainline():
                engine_moved = (board.turn == chess.WHITE) == engine_white
                board.push(node.move)
                found = SCORE.match(node.comment)
                if not found:
                    continue
                score = found.group(1)
                if engine_moved:
                    own_last = score
                elif score.startswith("+M"):
                    bands[piece_band(len(board.piece_map()))] += 1
                    announced_at.append(board.ply())
                    own_scores[score_band(own_last)] += 1
                    break
            else:
                bands["never announced"] += 1
    print(f"{path}: {losses} losses; pieces on the board when the opponent announced a forced win: {dict(bands)}")
    if announced_at:
        print(f"  median ply of the announcement {sorted(announced_at)[len(announced_at) // 2]}")
    print(f"  {name}'s own score just before: {dict(own_scores)}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--name", default="rukav")
    args = ap.parse_args()
    for path in args.pgn:
        analyse(path, args.name)


if __name__ == "__main__":
    main()
