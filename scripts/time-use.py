#!/usr/bin/env python3
"""Where each engine of a match spends its clock: from a match.py PGN (move
comments `score/depth 0.52s`, header `TimeControl` BASE+INC), per engine,
the time per move and the share of the game's thinking time by stage of the
game (move number bands, and pieces on the board), the clock left at given
move numbers, and how often a move took more than a tenth of the clock it
had. Games of both engines are read together, so the two columns come from
the same positions.

    python3 scripts/time-use.py games.pgn [more.pgn ...]
"""
import argparse
import collections
import re

import chess.pgn

ELAPSED = re.compile(r"(\d+(?:\.\d+)?)s\b")
MOVE_BANDS = [(1, 10), (11, 20), (21, 30), (31, 45), (46, 60), (61, 999)]
PIECE_BANDS = [(25, 64, "25+ pieces"), (17, 24, "17-24"), (9, 16, "9-16"), (0, 8, "<=8")]
CLOCK_AT = [10, 20, 30, 40, 60]


def time_control(text):
    """(base seconds, increment) of a `TimeControl` header, or None."""
    try:
        base, inc = text.split("+")
        return float(base), float(inc)
    except (ValueError, AttributeError):
        return None


class Usage:
    """What one engine did with its clock."""

    def __init__(self):
        self.by_move = collections.defaultdict(list)
        self.by_pieces = collections.defaultdict(list)
        self.clock_at = collections.defaultdict(list)
        self.big_moves = 0
        self.moves = 0
        self.games = 0
        self.lowest = []


def band_of(value, bands):
    for band in bands:
        if band[0] <= value <= band[1]:
            return band
    return None


def read(path, usage):
    with open(path, encoding="utf-8") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                return
            tc = time_control(game.headers.get("TimeControl"))
            names = {chess.WHITE: game.headers.get("White", "?"),
                     chess.BLACK: game.headers.get("Black", "?")}
            clock = {c: tc[0] for c in names} if tc else None
            lowest = dict(clock) if clock else None
            for name in names.values():
                usage[name].games += 1
            board = game.board()
            for node in game.mainline():
                mover = board.turn
                match = ELAPSED.search(node.comment or "")
                if match and "book" not in node.comment:
                    seconds = float(match.group(1))
                    u = usage[names[mover]]
                    number = board.fullmove_number
                    pieces = chess.popcount(board.occupied)
                    u.by_move[band_of(number, MOVE_BANDS)].append(seconds)
                    u.by_pieces[band_of(pieces, PIECE_BANDS)].append(seconds)
                    u.moves += 1
                    if clock:
                        if seconds > clock[mover] / 10:
                            u.big_moves += 1
                        clock[mover] = clock[mover] - seconds + tc[1]
                        lowest[mover] = min(lowest[mover], clock[mover])
                        if number in CLOCK_AT:
                            u.clock_at[number].append(clock[mover])
                board.push(node.move)
            if lowest:
                for color, name in names.items():
                    usage[name].lowest.append(lowest[color])


def mean(values):
    return sum(values) / len(values) if values else 0.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", nargs="+")
    args = parser.parse_args()
    usage = collections.defaultdict(Usage)
    for path in args.pgn:
        read(path, usage)
    names = sorted(usage)
    print("engine: " + " | ".join(f"{n} ({usage[n].games} games, {usage[n].moves} moves)"
                                  for n in names))
    total = {n: sum(sum(v) for v in usage[n].by_move.values()) or 1.0 for n in names}

    def row(label, values_of, share=False, fmt="6.3f"):
        """One line: per engine, the mean of its values, their count and
        (with `share`) their part of its thinking time."""
        cells = []
        for n in names:
            values = values_of(usage[n])
            part = f"{100 * sum(values) / total[n]:4.1f}%, " if share else ""
            cells.append(f"{mean(values):{fmt}} s ({part}{len(values)})")
        print(f"  {label:12} " + " | ".join(cells))

    print("\nseconds per move (share of the engine's thinking time) by move number")
    for band in MOVE_BANDS:
        label = f"moves {band[0]}-{band[1]}" if band[1] < 999 else f"moves {band[0]}+"
        row(label, lambda u: u.by_move.get(band, []), share=True)
    print("\nseconds per move by pieces on the board")
    for band in PIECE_BANDS:
        row(band[2], lambda u: u.by_pieces.get(band, []))
    if any(usage[n].clock_at for n in names):
        print("\nmean clock left after move N (games still going)")
        for number in CLOCK_AT:
            row(f"move {number}", lambda u: u.clock_at.get(number, []), fmt="7.2f")
        print("\nlowest clock of a game (mean, min); moves over a tenth of the clock left")
        for n in names:
            u = usage[n]
            low = min(u.lowest) if u.lowest else 0.0
            print(f"  {n}: {mean(u.lowest):.2f} s, {low:.2f} s; {u.big_moves} of {u.moves}")


if __name__ == "__main__":
    main()
