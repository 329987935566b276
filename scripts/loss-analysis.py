#!/usr/bin/env python3
"""Where the losses of a match were decided: for each game the engine (`--name`, default rukav)
lost in a match.py PGN, the number of pieces on the board when the opponent first announced a
forced win (`+M` in its move comment; with `--turn P`, first scored P pawns or more, searched
deeper than one ply), the ply of that announcement (and the plies played from the opening
position), and the engine's own score on its move just before. `--min-plies N` takes only the
losses of N plies or more; `--by-length` also prints the engine's score by band of plies played.

    python3 scripts/loss-analysis.py games.pgn [more.pgn ...]
    python3 scripts/loss-analysis.py exam.pgn --min-plies 120 --turn 3 --by-length
"""
import argparse
import collections
import statistics

import chess.pgn

from pgn_score import parse

BAND = 20
TOP_BAND = 120


def piece_band(pieces):
    if pieces <= 3:
        return "<=3"
    if pieces <= 6:
        return "4-6"
    return "7-12" if pieces <= 12 else "13+"


def score_band(score):
    if score is None:
        return "none"
    if score.mate:
        return "mate"
    return "<=-3" if score.pawns <= -3 else "-3..-1" if score.pawns <= -1 else ">-1"


def turned(score, turn):
    """Whether the opponent's `score` announces the turn: a forced win, or
    with `turn` set at least that many pawns from a search deeper than one ply."""
    if turn is None:
        return score.mate and score.pawns > 0
    return score.depth > 1 and score.pawns >= turn


def analyse(path, name, turn, min_plies, by_length):
    bands = collections.Counter()
    own_scores = collections.Counter()
    announced_at = []
    played_at = []
    pieces_at = []
    length_points = collections.defaultdict(list)
    losses = 0
    with open(path) as pgn:
        while (game := chess.pgn.read_game(pgn)) is not None:
            result = game.headers["Result"]
            engine_white = game.headers["White"] == name
            if name not in (game.headers["White"], game.headers["Black"]):
                continue
            plies = sum(1 for _ in game.mainline())
            points = 0.5 if result == "1/2-1/2" else float((result == "1-0") == engine_white)
            length_points[min(plies // BAND * BAND, TOP_BAND)].append(points)
            if points != 0.0 or plies < min_plies:
                continue
            losses += 1
            board = game.board()
            own_last = None
            for played, node in enumerate(game.mainline(), 1):
                engine_moved = (board.turn == chess.WHITE) == engine_white
                board.push(node.move)
                score = parse(node.comment)
                if score is None:
                    continue
                if engine_moved:
                    own_last = score
                elif turned(score, turn):
                    bands[piece_band(len(board.piece_map()))] += 1
                    announced_at.append(board.ply())
                    played_at.append(played)
                    pieces_at.append(len(board.piece_map()))
                    own_scores[score_band(own_last)] += 1
                    break
            else:
                bands["never announced"] += 1
    what = "a forced win" if turn is None else f"+{turn:g}"
    longer = f" of {min_plies}+ plies" if min_plies else ""
    print(f"{path}: {losses} losses{longer}; pieces on the board when the opponent announced {what}: {dict(bands)}")
    if announced_at:
        print(f"  median ply of the announcement {sorted(announced_at)[len(announced_at) // 2]} "
              f"({statistics.median(played_at)} plies from the opening position, "
              f"{statistics.median(pieces_at)} pieces on the board)")
    print(f"  {name}'s own score just before: {dict(own_scores)}")
    if by_length:
        for start in sorted(length_points):
            points = length_points[start]
            label = f"{start}+" if start == TOP_BAND else f"{start}-{start + BAND - 1}"
            print(f"  plies {label:8} {len(points):5} games  score {sum(points) / len(points):.3f}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--name", default="rukav")
    ap.add_argument("--turn", type=float, help="the opponent's score (pawns) that counts, instead of a forced win")
    ap.add_argument("--min-plies", type=int, default=0, help="only losses of this many plies or more")
    ap.add_argument("--by-length", action="store_true", help="the score by band of plies played too")
    args = ap.parse_args()
    for path in args.pgn:
        analyse(path, args.name, args.turn, args.min_plies, args.by_length)


if __name__ == "__main__":
    main()
