#!/usr/bin/env python3
"""Is a lost game's mistake a matter of depth? For each game the engine (`--name`, default rukav)
lost in a match.py PGN, find its moves after which the opponent's own score (from its move
comments) rose by at least `--jump` pawns while the engine still scored its position at
`--own-min` or better; then search the position before each such move with both engines at two
node counts and print their moves and scores (ply: half-moves after the opening position,
from 0). A row where the engine's large count switches to
the opponent's move, which the opponent finds at the small count, is a mistake that more depth
(or a more efficient search) fixes; a row where the engine keeps another move than the opponent's
at both counts is a candidate for the evaluation (or for an opponent that is wrong).

    python3 scripts/depth-probe.py games.pgn --engine ./target/release/rukav --opponent fairy-stockfish \\
        --variant antichess --small 300000 --large 5000000
"""
import argparse

import chess.pgn
import chess.variant

from pgn_score import parse
from uci_engine import UciEngine


def suspects(path, name, jump, own_min):
    """(opening, ply, FEN, move, own score, opponent before, opponent after) per suspect move."""
    found = []
    with open(path) as pgn:
        while (game := chess.pgn.read_game(pgn)) is not None:
            ours = chess.WHITE if game.headers.get("White") == name else chess.BLACK
            lost = {chess.WHITE: "0-1", chess.BLACK: "1-0"}[ours]
            if game.headers.get("Result") != lost:
                continue
            board = game.board()
            theirs_before = None
            pending = None
            for ply, node in enumerate(game.mainline()):
                parsed = parse(node.comment)
                if parsed:
                    score = parsed.pawns
                    if board.turn == ours:
                        pending = (board.fen(), node.move.uci(), score)
                    else:
                        if (
                            pending
                            and theirs_before is not None
                            and score - theirs_before >= jump
                            and pending[2] >= own_min
                        ):
                            opening = game.headers.get("Opening", "?")
                            found.append((opening, ply - 1, *pending, theirs_before, score))
                        theirs_before = score
                board.push(node.move)
    return found


def probe(engine, fen, nodes):
    """(best move, score, depth) of a search of `fen` to `nodes` nodes."""
    engine.send("ucinewgame")
    engine.send(f"position fen {fen}")
    engine.sync()
    info = engine.search(f"go nodes {nodes}", keep=" pv ")
    if info is None:
        return "?", "?", "?"
    i = info.index("score")
    move = info[info.index("pv") + 1]
    return move, info[i + 1] + " " + info[i + 2], info[info.index("depth") + 1]


def start(path, variant, hash_mb):
    engine = UciEngine(path)
    engine.send("uci")
    engine.wait_for("uciok")
    engine.send(f"setoption name UCI_Variant value {variant}")
    engine.send(f"setoption name Hash value {hash_mb}")
    engine.sync()
    return engine


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--engine", required=True, help="our engine's binary")
    ap.add_argument("--opponent", required=True, help="the opponent's binary")
    ap.add_argument("--name", default="rukav", help="our engine's name in the PGN")
    ap.add_argument("--variant", default="antichess")
    ap.add_argument("--jump", type=float, default=2.0, help="opponent score rise, pawns")
    ap.add_argument("--own-min", type=float, default=-0.5, help="our score at least this, pawns")
    ap.add_argument("--small", type=int, default=300_000, help="nodes of the first search")
    ap.add_argument("--large", type=int, default=5_000_000, help="nodes of the second search")
    ap.add_argument("--hash", type=int, default=64)
    args = ap.parse_args()
    rows = [s for path in args.pgn for s in suspects(path, args.name, args.jump, args.own_min)]
    print(f"{len(rows)} suspect moves")
    ours = start(args.engine, args.variant, args.hash)
    theirs = start(args.opponent, args.variant, args.hash)
    fixed = kept = 0
    for opening, ply, fen, played, own, before, after in rows:
        a, b = (probe(ours, fen, n) for n in (args.small, args.large))
        c, d = (probe(theirs, fen, n) for n in (args.small, args.large))
        print(f"{opening} ply {ply} played {played} (own {own:+.2f}, opponent {before:+.2f} -> {after:+.2f})")
        print(f"    ours   {args.small}: {a[0]} {a[1]} d{a[2]}   {args.large}: {b[0]} {b[1]} d{b[2]}")
        print(f"    theirs {args.small}: {c[0]} {c[1]} d{c[2]}   {args.large}: {d[0]} {d[1]} d{d[2]}")
        if a[0] != c[0] and b[0] == c[0] == d[0]:
            fixed += 1
        if a[0] == b[0] and c[0] == d[0] and a[0] != c[0]:
            kept += 1
    print(
        f"ours switches to the opponent's move only at {args.large} nodes: {fixed}; "
        f"both keep different moves at both counts: {kept}; of {len(rows)}"
    )
    ours.quit()
    theirs.quit()


if __name__ == "__main__":
    main()
