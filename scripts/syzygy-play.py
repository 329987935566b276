#!/usr/bin/env python3
"""Plays an ending out with the engine on both sides and Syzygy tables set, and judges every move
with python-chess's own Syzygy reader (a second implementation): a won position must stay won
until the game ends, a drawn one must not be lost. Also prints the engine's first `info` line
with and without tables (score, nodes, tbhits). A measurement, not a test: needs table files.

    python3 scripts/syzygy-play.py --engine target/release/rukav --tables /path/to/syzygy \\
        --fen '5k2/4R3/4K3/8/4B3/2r5/8/8 w - - 0 1' [--movetime 0.2] [--variant chess]
"""
import argparse

import chess
import chess.engine
import chess.syzygy
import chess.variant


def board_of(variant: str, fen: str) -> chess.Board:
    return chess.variant.AntichessBoard(fen) if variant == "antichess" else chess.Board(fen)


def first_look(engine_path: str, variant: str, fen: str, tables: str | None, movetime: float) -> None:
    with chess.engine.SimpleEngine.popen_uci(engine_path) as e:
        if tables:
            e.configure({"SyzygyPath": tables})
        info = e.analyse(board_of(variant, fen), chess.engine.Limit(time=movetime))
        print(f"  {'with' if tables else 'without'} tables: score {info.get('score')} depth {info.get('depth')} "
              f"nodes {info.get('nodes')} tbhits {info.get('tbhits', 0)} pv {' '.join(m.uci() for m in info.get('pv', [])[:6])}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True)
    ap.add_argument("--tables", required=True)
    ap.add_argument("--fen", required=True)
    ap.add_argument("--variant", default="chess", choices=["chess", "antichess"])
    ap.add_argument("--movetime", type=float, default=0.2)
    ap.add_argument("--look", type=float, default=3.0, help="seconds for the first-look searches")
    args = ap.parse_args()

    print(f"{args.fen} ({args.variant}), {args.look:g} s:")
    first_look(args.engine, args.variant, args.fen, None, args.look)
    first_look(args.engine, args.variant, args.fen, args.tables, args.look)

    board = board_of(args.variant, args.fen)
    tb = chess.syzygy.open_tablebase(args.tables, VariantBoard=type(board))
    wdl0 = tb.probe_wdl(board)
    mover = board.turn
    bad = 0
    with chess.engine.SimpleEngine.popen_uci(args.engine) as e:
        e.configure({"SyzygyPath": args.tables})
        while not board.is_game_over(claim_draw=True):
            move = e.play(board, chess.engine.Limit(time=args.movetime)).move
            before = tb.probe_wdl(board)
            board.push(move)
            after = -tb.get_wdl(board, 0) if not board.is_game_over() else None
            if after is not None and after < before:
                bad += 1
                print(f"  move {board.fullmove_number} {move.uci()}: WDL {before} -> {after}")
    result = board.result(claim_draw=True)
    print(f"  played out: {len(board.move_stack)} plies, {result} "
          f"(tables at the start: WDL {wdl0:+d} for {'White' if mover else 'Black'}), "
          f"moves that gave away a result: {bad}")
    print("  moves: " + " ".join(m.uci() for m in board.move_stack))
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
