"""Rukav under lichess-bot's real code, against lichess-bot's own mock lichess.

Copied into a lichess-bot checkout's test_bot/ by scripts/lichess-bot/run.py and run there by
pytest (it imports lichess-bot's `lib` and `test_bot`). One test per (variant, protocol): the bot
plays Black with config.yml.default as shipped (only the token, the engine's path and protocol
and the PGN folder changed), lichess-bot's `Lichess` mock serves the game, and White is a second
Rukav driven here through python-chess at a few thousand nodes a move. The game stream is
lichess-bot's mock with the variant and clock of the run instead of standard chess.

Environment: RUKAV (the engine under test), RUKAV_OPPONENT (White, default RUKAV),
RUKAV_TC (base+inc seconds, default 10+0.1), RUKAV_OPPONENT_NODES (default 3000),
RUKAV_MAX_PLIES (a game still going then is stopped and counted as unfinished, default 400),
RUKAV_RESULTS (a JSON-lines file, one line per game), RUKAV_CASES ("crazyhouse:uci,..."),
RUKAV_UCI_OPTIONS ("default": config.yml.default's uci_options; "none": none).
"""
from __future__ import annotations

import datetime
import json
import logging
import os
import sys
import tempfile
import threading
import time
from multiprocessing import Manager
from queue import Queue

import chess
import chess.engine
import chess.variant
import pytest
import yaml

import test_bot.lichess
from lib import config, lichess_bot
from lib.timer import seconds, to_msec

logger = logging.getLogger(__name__)

ENGINE = os.path.abspath(os.environ.get("RUKAV", "rukav"))
OPPONENT = os.path.abspath(os.environ.get("RUKAV_OPPONENT", ENGINE))
BASE, INC = (float(x) for x in os.environ.get("RUKAV_TC", "10+0.1").split("+"))
OPPONENT_NODES = int(os.environ.get("RUKAV_OPPONENT_NODES", "3000"))
MAX_PLIES = int(os.environ.get("RUKAV_MAX_PLIES", "400"))
RESULTS = os.environ.get("RUKAV_RESULTS", "rukav-lichess-bot.jsonl")
CASES = [tuple(c.split(":")) for c in
         os.environ.get("RUKAV_CASES", "crazyhouse:uci,antichess:uci,crazyhouse:xboard,antichess:xboard").split(",")]
VARIANT_NAMES = {"crazyhouse": "Crazyhouse", "antichess": "Antichess", "standard": "Standard",
                 "atomic": "Atomic", "threeCheck": "Three-check"}


def game_stream(variant: str):
    """lichess-bot's mock GameStream.iter_lines, for `variant` and the run's clock."""

    def iter_lines(self, chunk_size=512, decode_unicode=False, delimiter=None):
        yield json.dumps(
            {"id": "zzzzzzzz",
             "variant": {"key": variant, "name": VARIANT_NAMES.get(variant, variant), "short": variant[:4]},
             "clock": {"initial": int(BASE * 1000), "increment": int(INC * 1000)},
             "speed": "bullet", "perf": {"name": "Bullet"}, "rated": False, "createdAt": 1600000000000,
             "white": {"id": "bo", "name": "bo", "title": "BOT", "rating": 3000},
             "black": {"id": "b", "name": "b", "title": "BOT", "rating": 3000},
             "initialFen": "startpos", "type": "gameFull",
             "state": {"type": "gameState", "moves": "", "wtime": int(BASE * 1000), "btime": int(BASE * 1000),
                       "winc": int(INC * 1000), "binc": int(INC * 1000), "status": "started"}}).encode("utf-8")
        while True:
            moves = self.board_queue.get()
            self.board_queue.task_done()
            wtime, btime, increment, status, winner = self.clock_queue.get()
            self.clock_queue.task_done()
            state = {"type": "gameState", "moves": moves,
                     "wtime": int(to_msec(wtime)), "btime": int(to_msec(btime)),
                     "winc": int(to_msec(increment)), "binc": int(to_msec(increment)), "status": status}
            if winner:
                state["winner"] = winner
            yield json.dumps(state).encode("utf-8")
            if status != "started":
                break

    return iter_lines


def simulator(variant: str, move_queue: Queue, board_queue: Queue, clock_queue: Queue, results: Queue) -> None:
    """White's side of the game (a second Rukav) and lichess's clock for the bot (Black)."""
    board = chess.variant.find_variant(VARIANT_NAMES.get(variant, variant))()
    record = {"variant": variant, "plies": 0, "illegal": None, "bot_min_clock_ms": None, "result": None,
              "end": None}
    wtime = btime = seconds(BASE)
    increment = seconds(INC)
    opponent = chess.engine.SimpleEngine.popen_uci(OPPONENT)
    try:
        def send(status: str = "started", winner: str | None = None) -> None:
            board_queue.put(" ".join(m.uci() for m in board.move_stack))
            clock_queue.put((wtime, btime, increment, status, winner))

        while True:
            outcome = board.outcome()
            if outcome is not None or len(board.move_stack) >= MAX_PLIES:
                break
            if board.turn == chess.WHITE:
                board.push(opponent.play(board, chess.engine.Limit(nodes=OPPONENT_NODES)).move)
                if board.outcome() is None:
                    send()
                asked = time.monotonic()
            else:
                while (bot_move := move_queue.get()) is None:
                    send()
                    move_queue.task_done()
                    asked = time.monotonic()
                move_queue.task_done()
                if len(board.move_stack) > 1:  # lichess starts the clocks after each side's first move
                    btime -= seconds(time.monotonic() - asked)
                    low = int(to_msec(btime))
                    if record["bot_min_clock_ms"] is None or low < record["bot_min_clock_ms"]:
                        record["bot_min_clock_ms"] = low
                    btime += increment
                if bot_move not in board.legal_moves:
                    record["illegal"] = bot_move.uci()
                    break
                board.push(bot_move)
        outcome = board.outcome()
        record["plies"] = len(board.move_stack)
        if record["illegal"]:
            record["result"], record["end"] = "1-0", "illegal move"
        elif outcome is None:
            record["result"], record["end"] = "*", f"stopped after {MAX_PLIES} plies"
        else:
            record["result"], record["end"] = outcome.result(), outcome.termination.name.lower()
        winner = {"1-0": "white", "0-1": "black"}.get(record["result"])
        status = "mate" if record["end"] == "checkmate" else ("variantEnd" if record["end"] == "variant_win"
                                                               or record["end"] == "variant_loss" else "draw")
        if record["result"] == "*":
            status = "aborted"
        send(status, winner)
    finally:
        opponent.quit()
        results.put(record)


@pytest.mark.parametrize("variant,protocol", CASES)
def test_rukav_plays_a_game(variant: str, protocol: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """lichess-bot with config.yml.default and Rukav finishes a game: every move legal, clock >= 0."""
    monkeypatch.setattr(test_bot.lichess.GameStream, "iter_lines", game_stream(variant))
    with open("./config.yml.default") as file:
        raw = yaml.safe_load(file)
    with tempfile.TemporaryDirectory() as temp:
        raw["token"] = ""
        raw["engine"]["dir"] = os.path.dirname(ENGINE)
        raw["engine"]["name"] = os.path.basename(ENGINE)
        raw["engine"]["protocol"] = protocol
        raw["pgn_directory"] = os.path.join(temp, "games")
        if os.environ.get("RUKAV_UCI_OPTIONS", "default") == "none":
            raw["engine"]["uci_options"] = {}
        raw["challenge"]["variants"] = [variant]
        config.insert_default_values(raw)
        cfg = config.Configuration(raw)
        manager = Manager()
        board_queue, clock_queue, move_queue, results = (manager.Queue() for _ in range(4))
        li = test_bot.lichess.Lichess(move_queue, board_queue, clock_queue)
        lichess_bot.disable_restart()
        sim = threading.Thread(target=simulator, args=[variant, move_queue, board_queue, clock_queue, results])
        sim.start()
        started = time.monotonic()
        lichess_bot.start(li, li.get_profile(), cfg, logging.INFO, None, True, one_game=True)
        record = results.get()
        sim.join()
    record.update(protocol=protocol, seconds=round(time.monotonic() - started, 1), tc=f"{BASE:g}+{INC:g}")
    with open(RESULTS, "a") as out:
        out.write(json.dumps(record) + "\n")
    print(json.dumps(record), file=sys.stderr)
    assert record["illegal"] is None, record
    assert record["bot_min_clock_ms"] is None or record["bot_min_clock_ms"] >= 0, record
    assert record["result"] != "*", record
