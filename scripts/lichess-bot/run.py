#!/usr/bin/env python3
"""Runs lichess-bot's own code, with its mock lichess, on Rukav: crazyhouse and antichess over UCI
and xboard, config.yml.default as lichess-bot ships it. Not part of CI; downloads nothing.

You need a lichess-bot checkout (a work tree, or a bare git directory such as the search tool's
fetch gives) and its Python requirements installed (`pip install -r requirements.txt -r
test_bot/test-requirements.txt` in that checkout, or chess, PyYAML, requests, backoff, rich, pytest).
The checkout is copied to a temporary folder and test_rukav.py (beside this script) is added to its
test_bot/; nothing in the checkout changes.

    python3 scripts/lichess-bot/run.py --lichess-bot /path/to/lichess-bot --engine target/release/rukav \\
        [--games 2] [--tc 10+0.1] [--cases crazyhouse:uci,antichess:xboard] [--results out.jsonl]

Each game is one pytest case; it fails on an illegal move, a bot clock below zero, or a game that
does not end within --max-plies. The summary table lists every game (result, plies, the bot's
lowest clock). Its own test of lichess-bot's default configuration is the same run: the engine
section's uci_options (SyzygyPath, Threads, Hash, Move Overhead, UCI_ShowWDL) are sent as shipped.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def export(source: str, target: str) -> str:
    """Copies a lichess-bot work tree, or exports HEAD of a bare git directory, into `target`."""
    tree = os.path.join(target, "lichess-bot")
    if os.path.isfile(os.path.join(source, "lichess-bot.py")):
        shutil.copytree(source, tree, ignore=shutil.ignore_patterns(".git", "TEMP", "*.pyc"))
        return tree
    git_dir = source if os.path.isfile(os.path.join(source, "HEAD")) else os.path.join(source, ".git")
    os.makedirs(tree)
    archive = subprocess.run(["git", f"--git-dir={git_dir}", "archive", "HEAD"], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", tree], input=archive.stdout, check=True)
    return tree


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lichess-bot", required=True, help="lichess-bot work tree or bare git directory")
    ap.add_argument("--engine", required=True, help="the Rukav binary under test (plays Black)")
    ap.add_argument("--opponent", help="the UCI engine for White (default: --engine)")
    ap.add_argument("--cases", default="crazyhouse:uci,antichess:uci,crazyhouse:xboard,antichess:xboard")
    ap.add_argument("--games", type=int, default=1, help="games per case")
    ap.add_argument("--tc", default="10+0.1", help="base+increment in seconds")
    ap.add_argument("--opponent-nodes", type=int, default=3000)
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--no-uci-options", action="store_true",
                    help="send no uci_options (default: config.yml.default's, as shipped)")
    ap.add_argument("--results", default="lichess-bot-results.jsonl", help="JSON lines, one per game (appended)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary copy (its path is printed)")
    args = ap.parse_args()

    engine = os.path.abspath(args.engine)
    results = os.path.abspath(args.results)
    temp = tempfile.mkdtemp(prefix="rukav-lichess-bot-")
    try:
        tree = export(args.lichess_bot, temp)
        shutil.copy(os.path.join(HERE, "test_rukav.py"), os.path.join(tree, "test_bot", "test_rukav.py"))
        env = dict(os.environ, RUKAV=engine, RUKAV_OPPONENT=os.path.abspath(args.opponent or engine),
                   RUKAV_TC=args.tc, RUKAV_OPPONENT_NODES=str(args.opponent_nodes),
                   RUKAV_MAX_PLIES=str(args.max_plies), RUKAV_RESULTS=results,
                   RUKAV_UCI_OPTIONS="none" if args.no_uci_options else "default")
        before = sum(1 for _ in open(results)) if os.path.exists(results) else 0
        # One pytest process a game, as a bot operator starts lichess-bot afresh: lichess-bot
        # keeps module-level state (its restart switch, logging) that a second game in the same
        # process inherits (a fourth game in one process once stalled with both engines idle).
        rc = 0
        for case in args.cases.split(",") * args.games:
            env["RUKAV_CASES"] = case
            rc = subprocess.call([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
                                  "test_bot/test_rukav.py"], cwd=tree, env=env) or rc
        lines = open(results).read().splitlines()[before:] if os.path.exists(results) else []
        print(f"\n{'variant':<11} {'protocol':<8} {'result':<8} {'end':<22} {'plies':>5} {'bot min clock ms':>16}")
        for line in lines:
            r = json.loads(line)
            print(f"{r['variant']:<11} {r['protocol']:<8} {r['result']:<8} {str(r['end']):<22} {r['plies']:>5} "
                  f"{str(r['bot_min_clock_ms']):>16}" + (f"  ILLEGAL {r['illegal']}" if r["illegal"] else ""))
        print(f"{len(lines)} games; pytest exit {rc}")
        return rc
    finally:
        if args.keep:
            print(f"kept {temp}")
        else:
            shutil.rmtree(temp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
