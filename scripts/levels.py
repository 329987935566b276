#!/usr/bin/env python3
"""Plays Rukav's strength levels against each other (the calibration of
`Skill Level` / `UCI_Elo`; see "Strength levels: calibration" in docs/measurements.md).

    python3 scripts/levels.py --pair 2 5 --pair 5 8 --games 100

Each pair `A B` plays GAMES games between `Skill Level A` and `Skill Level B`
(game pairs from the same opening, colours reversed; the opening is a few
random plies from the start position, seeded), at a clock of TC, CONCURRENCY
games at once. It prints, per pair, W/D/L of the stronger level, the score,
the measured Elo difference with its 95% interval (pentanomial, over game
pairs), and the nominal difference (the `UCI_Elo` of the two levels, from
the `LEVELS` table in src/search/strength.rs). Needs
python-chess (`pip install chess`) and nothing else.
"""
import argparse
import concurrent.futures
import math
import random
import re
import sys
import time

import chess
import chess.engine
import chess.variant

BOARDS = {
    "chess": chess.Board,
    "crazyhouse": chess.variant.CrazyhouseBoard,
    "antichess": chess.variant.AntichessBoard,
}


def opening(variant, plies, seed):
    """A board after `plies` random legal moves from the start (seeded)."""
    rng = random.Random(seed)
    while True:
        board = BOARDS[variant]()
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if not board.is_game_over():
            return board


def play_game(engine_path, white_level, black_level, board, tc, max_plies):
    """Plays one game; returns 1, 0.5 or 0 for White."""
    base, inc = tc
    engines = {}
    try:
        for colour, level in ((chess.WHITE, white_level), (chess.BLACK, black_level)):
            e = chess.engine.SimpleEngine.popen_uci(engine_path)
            e.configure({"Skill Level": level, "Hash": 16})
            engines[colour] = e
        clock = {chess.WHITE: base, chess.BLACK: base}
        board = board.copy()
        while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
            side = board.turn
            limit = chess.engine.Limit(
                white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK],
                white_inc=inc, black_inc=inc)
            start = time.monotonic()
            result = engines[side].play(board, limit)
            clock[side] -= time.monotonic() - start
            if clock[side] < 0:
                return 0.0 if side == chess.WHITE else 1.0
            clock[side] += inc
            if result.move is None or result.move not in board.legal_moves:
                return 0.0 if side == chess.WHITE else 1.0
            board.push(result.move)
        if board.ply() >= max_plies:
            return 0.5
        outcome = board.outcome(claim_draw=True)
        if outcome is None or outcome.winner is None:
            return 0.5
        return 1.0 if outcome.winner == chess.WHITE else 0.0
    finally:
        for e in engines.values():
            e.quit()


def play_pair(args, strong, weak, index):
    """A game pair from one opening: returns the stronger level's points in
    the two games."""
    board = opening(args.variant, args.plies, args.seed * 1_000_003 + index)
    first = play_game(args.engine, strong, weak, board, args.tc, args.max_plies)
    second = 1.0 - play_game(args.engine, weak, strong, board, args.tc, args.max_plies)
    return first, second


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def summary(pairs):
    """Score, Elo and its 95% interval from game-pair results (pentanomial)."""
    totals = [a + b for a, b in pairs]
    n = len(totals)
    mean = sum(totals) / (2 * n)
    var = sum((t / 2 - mean) ** 2 for t in totals) / n
    se = math.sqrt(var / n) if n > 1 else 0.5
    return mean, elo(mean), elo(mean - 1.96 * se), elo(mean + 1.96 * se)


def nominal_elos(source):
    """The `UCI_Elo` of every skill level: the `elo` column of `LEVELS` in
    src/search/strength.rs, in order."""
    text = open(source).read()
    table = text[text.index("pub const LEVELS"):]
    table = table[:table.index("];")]
    return dict(enumerate(int(e) for e in re.findall(r"level\((\d+),", table)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", default="target/release/rukav")
    ap.add_argument("--levels-source", default="src/search/strength.rs")
    ap.add_argument("--pair", nargs=2, type=int, action="append", required=True,
                    metavar=("WEAK", "STRONG"), help="two skill levels (repeatable)")
    ap.add_argument("--games", type=int, default=100, help="games per pair (even)")
    ap.add_argument("--variant", choices=sorted(BOARDS), default="crazyhouse")
    ap.add_argument("--tc", default="30+0.3", help="seconds+increment per game")
    ap.add_argument("--plies", type=int, default=4, help="random plies of each opening")
    ap.add_argument("--max-plies", type=int, default=400, help="draw after this many plies")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    base, _, inc = args.tc.partition("+")
    args.tc = (float(base), float(inc or 0))
    nominal = nominal_elos(args.levels_source)
    print(f"{'levels':>8} {'games':>6} {'W':>4} {'D':>4} {'L':>4} {'score':>6} "
          f"{'measured Elo (95%)':>24} {'nominal':>8} {'off':>6}")
    for weak, strong in args.pair:
        weak, strong = min(weak, strong), max(weak, strong)
        with concurrent.futures.ThreadPoolExecutor(args.concurrency) as pool:
            jobs = [pool.submit(play_pair, args, strong, weak, i)
                    for i in range(max(1, args.games // 2))]
            pairs = [j.result() for j in jobs]
        games = [g for p in pairs for g in p]
        w, d = games.count(1.0), games.count(0.5)
        l = len(games) - w - d
        score, e, lo, hi = summary(pairs)
        nom = nominal.get(strong, 0) - nominal.get(weak, 0)
        print(f"{weak:>3}-{strong:<4} {len(games):>6} {w:>4} {d:>4} {l:>4} {score:>6.3f} "
              f"{e:>+8.0f} ({lo:+.0f} .. {hi:+.0f}) {nom:>+8} {e - nom:>+6.0f}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
