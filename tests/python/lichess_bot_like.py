"""python-chess drives Rukav as lichess-bot does: configure the strength,
WDL and Syzygy options, analyse with INFO_ALL, play crazyhouse, chess and antichess.

Run by tests/integration/python_chess.rs as `python3 lichess_bot_like.py <path of rukav>`;
exits non-zero (with the reason on stderr) when a check fails or python-chess
cannot be imported.
"""

import signal
import sys

try:
    import chess
    import chess.engine
    import chess.variant
except ImportError as e:  # fail loudly: CI installs it (.ci/run)
    sys.stderr.write(
        "python-chess cannot be imported (%s); install it with "
        "`python3 -m pip install chess`\n" % e
    )
    sys.exit(3)

# No hang: python-chess has per-command timeouts, this bounds the whole run.
signal.alarm(180)


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def check_options(engine):
    opts = engine.options
    for name in ["UCI_LimitStrength", "UCI_Elo", "Skill Level", "UCI_ShowWDL", "UCI_Variant",
                 "SyzygyPath"]:
        check(name in opts, "option %s missing: %s" % (name, list(opts)))
    elo = opts["UCI_Elo"]
    check(elo.type == "spin" and elo.min < elo.max, "UCI_Elo: %r" % (elo,))
    check(opts["Skill Level"].min == 0 and opts["Skill Level"].max == 20, "Skill Level range")
    # Values outside the declared range are refused by python-chess itself.
    try:
        engine.configure({"UCI_Elo": elo.min - 1})
    except chess.engine.EngineError:
        pass
    else:
        raise AssertionError("UCI_Elo below its minimum was accepted")
    return elo


def check_wdl(info, what):
    check("wdl" in info, "%s: no wdl in %r" % (what, info))
    wdl = info["wdl"]
    rel = wdl.relative
    check(rel.wins + rel.draws + rel.losses == 1000, "%s: wdl %r does not sum to 1000" % (what, wdl))
    check(rel.total() == 1000, what)
    return rel


def analyse_variants(engine):
    for board in [
        chess.variant.CrazyhouseBoard(),
        chess.Board(),
        chess.variant.AntichessBoard(),
    ]:
        board.push_uci("e2e3")
        info = engine.analyse(board, chess.engine.Limit(depth=6), info=chess.engine.INFO_ALL)
        what = type(board).uci_variant
        check_wdl(info, what)
        check("score" in info and "pv" in info and info["pv"], "%s: %r" % (what, info))
        check(board.is_legal(info["pv"][0]), "%s: illegal pv %r" % (what, info["pv"]))
    # A mate in one: all wins.
    board = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
    info = engine.analyse(board, chess.engine.Limit(depth=4), info=chess.engine.INFO_ALL)
    rel = check_wdl(info, "mate in one")
    check((rel.wins, rel.draws, rel.losses) == (1000, 0, 0), "mate in one: %r" % (rel,))
    check(info["pv"][0] == chess.Move.from_uci("h5f7"), "mate in one: %r" % info["pv"])


def currmove_in_a_longer_analysis(engine):
    board = chess.variant.CrazyhouseBoard()
    info = engine.analyse(board, chess.engine.Limit(time=2.5), info=chess.engine.INFO_ALL)
    check("currmove" in info and "currmovenumber" in info, "no currmove in %r" % (info,))
    check(board.is_legal(info["currmove"]), "currmove %r" % info["currmove"])


def play_crazyhouse(engine, plies):
    board = chess.variant.CrazyhouseBoard()
    for _ in range(plies):
        if board.is_game_over():
            break
        result = engine.play(board, chess.engine.Limit(time=0.2), info=chess.engine.INFO_ALL)
        check(result.move is not None and board.is_legal(result.move), "illegal %r in %s" % (result.move, board.fen()))
        board.push(result.move)
    return board


def play_chess_and_antichess(engine):
    for board in [chess.Board(), chess.variant.AntichessBoard()]:
        for _ in range(4):
            if board.is_game_over():
                break
            result = engine.play(board, chess.engine.Limit(time=0.1))
            check(board.is_legal(result.move), "illegal %r in %s" % (result.move, board.fen()))
            board.push(result.move)


def play_legal(engine, board, plies):
    """Lets the engine play up to `plies` moves on `board`, each one legal."""
    for _ in range(plies):
        if board.is_game_over():
            break
        result = engine.play(board, chess.engine.Limit(nodes=3000))
        assert result.move in board.legal_moves, f"{result.move} illegal in {board.fen()}"
        board.push(result.move)


def chess960(engine):
    # --- UCI_Chess960 ---
    # python-chess sends UCI_Chess960 itself for a board with chess960=True
    # and reads castling as king takes rook; the engine must play legal moves
    # in Chess960 positions where castling is possible, in chess and crazyhouse.
    assert "UCI_Chess960" in engine.options, "no UCI_Chess960 option"
    # Position 0 (BBQNNRKR): castling both ways needs the pieces between out.
    for number in (0, 518, 959):
        play_legal(engine, chess.Board.from_chess960_pos(number), 12)
    # A castling move in 960 notation, sent and played back.
    board = chess.Board("rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w KQkq - 0 1", chess960=True)
    castle = chess.Move.from_uci("b1a1")
    assert board.is_castling(castle), "test position must allow O-O-O"
    board.push(castle)
    result = engine.play(board, chess.engine.Limit(nodes=3000))
    assert result.move in board.legal_moves
    # Crazyhouse960: python-chess's CrazyhouseBoard with chess960=True.
    play_legal(engine, chess.variant.CrazyhouseBoard.from_chess960_pos(100), 10)


def main():
    path = sys.argv[1]
    engine = chess.engine.SimpleEngine.popen_uci([path])
    try:
        elo = check_options(engine)
        # As a lichess-bot configuration would set them (its default
        # config.yml sets SyzygyPath to ./syzygy/, a folder that usually does
        # not exist; python-chess refuses an option the engine does not offer).
        engine.configure({"UCI_ShowWDL": True, "UCI_LimitStrength": True, "UCI_Elo": 1500,
                          "SyzygyPath": "./syzygy/"})
        analyse_variants(engine)
        play_crazyhouse(engine, 8)
        play_chess_and_antichess(engine)
        # The weakest and the strongest Elo, and Skill Level instead.
        engine.configure({"UCI_Elo": elo.min})
        play_crazyhouse(engine, 4)
        engine.configure({"UCI_Elo": elo.max})
        play_crazyhouse(engine, 4)
        engine.configure({"UCI_LimitStrength": False, "Skill Level": 3})
        play_crazyhouse(engine, 4)
        # Full strength again.
        engine.configure({"Skill Level": 20})
        currmove_in_a_longer_analysis(engine)
        chess960(engine)
    finally:
        engine.quit()
    print("python-chess session ok")


if __name__ == "__main__":
    main()
