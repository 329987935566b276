#!/usr/bin/env python3
"""Makes an EPD of antichess positions with a forced result for
scripts/forced-wins.py: a reference engine plays itself from book openings
(15% random moves for variety, seeded); the first position of each game
where a short search (SHALLOW nodes) sees no forced result but a longer one
(DEEP nodes) does is written as `FEN ; mate M` (M for the side to move).

    python3 scripts/make-forced-wins.py ENGINE BOOK.epd --games 200 > forced.epd

scripts/antichess-forced.epd holds the first 98 lines of such a run with
Fairy-Stockfish (c19b5f6, built from its source outside this repository),
../shared/books/antichess.epd and the defaults (seed 11, 5,000 and 150,000
nodes); a rerun with --games 25 reproduced its first 16 lines. Needs
python-chess (`pip install chess`).
"""
import argparse
import random

import chess
import chess.engine
import chess.variant


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("engine")
    ap.add_argument("book")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--shallow", type=int, default=5000)
    ap.add_argument("--deep", type=int, default=150000)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    book = [line.strip() for line in open(args.book) if line.strip() and not line.startswith("#")]
    rng.shuffle(book)
    eng = chess.engine.SimpleEngine.popen_uci(args.engine)
    eng.configure({"Hash": 64})
    try:
        for line in book[: args.games]:
            board = chess.variant.AntichessBoard(" ".join(line.split()[:4]) + " 0 1")
            for ply in range(120):
                if board.is_game_over():
                    break
                info = eng.analyse(board, chess.engine.Limit(nodes=args.shallow))
                if info["score"].pov(board.turn).is_mate():
                    break
                if ply % 2 == 0 and board.legal_moves.count() > 1:
                    deep = eng.analyse(board, chess.engine.Limit(nodes=args.deep))
                    score = deep["score"].pov(board.turn)
                    if score.is_mate():
                        print(f"{board.fen()} ; mate {score.mate()}", flush=True)
                        break
                if rng.random() > 0.15:
                    board.push(info["pv"][0])
                else:
                    board.push(rng.choice(list(board.legal_moves)))
    finally:
        eng.quit()


if __name__ == "__main__":
    main()
