#!/usr/bin/env python3
"""SPSA tuning of the search parameters on this machine, the way OpenBench
tunes them, with games at a fixed node count.

The engine must be a tuning build (`cargo build --release --features tune`):
every parameter of `src/search/params.rs` is then a UCI option. The
parameters, their ranges and their steps are read from `ENGINE spsa-params`
(`--params` picks some of them by name).

Each iteration k draws a random sign d_i = +-1 per parameter and plays a
pair of games (one opening, colours swapped) between theta + c_k d and
theta - c_k d; with the pair's result r (points of the + side minus points
of the - side, -2..2) every parameter moves by R_k c_k,i r d_i. As in
OpenBench: c_k = c / (k + 1)^0.101, a_k = a / (A + k + 1)^0.602,
R_k = a_k / c_k^2, with c chosen so that c_k reaches the parameter's step at
the last iteration, a so that R_k reaches R_end (0.002) there, and A a tenth
of the iterations. `--concurrency` pairs are played at once (each with its
own two engine processes); results are applied as they come, as OpenBench's
workers do.

With `--opponent CMD` the two sides do not meet: each iteration plays the
opening with both colours for theta + c_k d against the opponent (any UCI
engine, at `--opponent-nodes` per move, with `--opponent-option
NAME=VALUE` set), then the same two games for theta - c_k d, and r is the +
side's points minus the - side's points (-2..2). That tunes against the
engine that matters rather than against the tuned engine itself (self-play
gains may not carry over to another opponent), at twice the games per
iteration and more noise per pair.

The state (iteration, theta, the random generator) is written to `--state`
after every iteration; running the same command again resumes. The tuned
values are the rounded theta: put them in `params.rs` only after an SPRT of
the normal build against the old defaults passes (docs/development.md).

Needs python-chess (`pip install chess`). Example, 4,000 pairs at 5,000
nodes per move on engine-made crazyhouse openings:

    cargo build --release --features tune && cp target/release/rukav /tmp/rukav-tune
    python3 scripts/spsa.py --engine /tmp/rukav-tune --openings zh-openings.epd \\
        --iterations 4000 --nodes 5000 --concurrency 2 --state spsa-zh.json

A weight new to the evaluation starts at 0, where the engine's step is the
smallest (5) and a short run hardly moves it: give it a larger step and
learning rate, for example `--step hce_NEW=20 --r-end 0.01` (hce_NEW being
the new weight's name in `ENGINE spsa-params`).
"""
import argparse
import json
import math
import os
import random
import shlex
import subprocess
import sys
import threading

import chess
import chess.engine
import chess.variant

ALPHA = 0.602
GAMMA = 0.101
MAX_PLIES = 400
# Both engines' scores beyond this many centipawns for this many plies in a
# row, the same side ahead: the game is adjudicated to that side.
ADJUDICATE_CP = 1500
ADJUDICATE_PLIES = 6


def read_params(engine, names):
    """The parameters as dicts (name, default, min, max, step, r_end) from
    `ENGINE spsa-params`, restricted to `names` when given."""
    out = subprocess.run([engine, "spsa-params"], capture_output=True, text=True, check=True)
    params = []
    for line in out.stdout.splitlines():
        fields = [f.strip() for f in line.split(",")]
        if len(fields) != 7:
            continue
        name, _, default, low, high, step, r_end = fields
        params.append({"name": name, "default": int(default), "min": int(low),
                       "max": int(high), "step": float(step), "r_end": float(r_end)})
    if names:
        known = {p["name"] for p in params}
        unknown = [n for n in names if n not in known]
        if unknown:
            sys.exit(f"unknown parameters: {', '.join(unknown)}")
        params = [p for p in params if p["name"] in names]
    if not params:
        sys.exit("no parameters to tune")
    return params


def read_openings(path):
    """FENs, one per line (EPD operations after the fourth field are dropped)."""
    fens = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = line.split(";")[0].split()
            if len(fields) >= 6 and fields[4].isdigit():
                fens.append(" ".join(fields[:6]))
            else:
                fens.append(" ".join(fields[:4]) + " 0 1")
    if not fens:
        sys.exit(f"{path}: no openings")
    return fens


def board_for(variant, fen):
    """A python-chess board of the variant at `fen`."""
    cls = chess.variant.find_variant(variant) if variant != "chess" else chess.Board
    return cls(fen)


def play_game(white, black, board, limits):
    """Plays one game; returns White's points (1, 0.5, 0). `limits` are the
    (White, Black) nodes per move. Each game is a new game to both engines
    (python-chess sends `ucinewgame` when the `game` token changes)."""
    game = object()
    engines = (white, black)
    ahead = 0
    for _ in range(MAX_PLIES):
        if board.is_game_over(claim_draw=True):
            result = board.result(claim_draw=True)
            return {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
        side = 0 if board.turn == chess.WHITE else 1
        played = engines[side].play(board, chess.engine.Limit(nodes=limits[side]),
                            info=chess.engine.INFO_SCORE, game=game)
        if played.move is None:
            return 0.5
        score = played.info.get("score")
        cp = score.white().score(mate_score=100000) if score else None
        if cp is not None and abs(cp) >= ADJUDICATE_CP:
            side = 1 if cp > 0 else -1
            ahead = ahead + side if ahead * side > 0 else side
            if abs(ahead) >= ADJUDICATE_PLIES:
                return 1.0 if ahead > 0 else 0.0
        else:
            ahead = 0
        board.push(played.move)
    return 0.5


def override_steps(params, steps, r_end):
    """Applies `--step NAME=VALUE` (repeatable) and `--r-end VALUE` to the
    engine's steps and R_end."""
    by_name = {p["name"]: p for p in params}
    for item in steps or []:
        name, sep, value = item.partition("=")
        if not sep or name not in by_name:
            sys.exit(f"--step {item}: expected NAME=VALUE with NAME a tuned parameter")
        try:
            step = float(value)
        except ValueError:
            step = math.nan
        if not (step > 0 and math.isfinite(step)):
            sys.exit(f"--step {item}: the step must be a positive number")
        by_name[name]["step"] = step
    if r_end is not None:
        if not (r_end > 0 and math.isfinite(r_end)):
            sys.exit("--r-end must be a positive number")
        for p in params:
            p["r_end"] = r_end
    return params


class Spsa:
    """The tuner's state: parameters, theta, iteration count, generator."""

    def __init__(self, args):
        self.args = args
        self.params = override_steps(read_params(args.engine, args.params), args.step, args.r_end)
        self.lock = threading.Lock()
        n = args.iterations
        self.big_a = 0.1 * n
        for p in self.params:
            p["c"] = p["step"] * n ** GAMMA
            p["a"] = p["r_end"] * p["step"] ** 2 * (self.big_a + n) ** ALPHA
        self.theta = {p["name"]: float(p["default"]) for p in self.params}
        self.started = 0
        self.finished = 0
        self.rng = random.Random(args.seed)
        if os.path.exists(args.state):
            with open(args.state, encoding="utf-8") as f:
                saved = json.load(f)
            if saved.get("iterations") != n or sorted(saved["theta"]) != sorted(self.theta):
                sys.exit(f"{args.state} is from another run (iterations or parameters differ)")
            # States written before --step and --r-end existed have no schedule.
            if saved.get("schedule", self.schedule()) != self.schedule():
                sys.exit(f"{args.state} is from another run (--step or --r-end differ)")
            if saved.get("opponent") != self.opponent():
                sys.exit(f"{args.state} is from another run (--opponent or its settings differ)")
            self.theta = saved["theta"]
            self.finished = self.started = saved["finished"]
            self.rng.setstate(_tuple_state(saved["rng"]))
            print(f"resuming at iteration {self.finished}", flush=True)

    def schedule(self):
        """Each parameter's step and R_end: a resumed run must keep them."""
        return {p["name"]: [p["step"], p["r_end"]] for p in self.params}

    def opponent(self):
        """The fixed opponent's command, node limit and options (None in
        self-play): a resumed run must keep them."""
        a = self.args
        if not a.opponent:
            return None
        return [a.opponent, a.opponent_nodes, sorted(a.opponent_option or [])]

    def next_task(self):
        """The next iteration's perturbation, or None when all have started."""
        with self.lock:
            if self.started >= self.args.iterations:
                return None
            k = self.started
            self.started += 1
            signs = {p["name"]: self.rng.choice((-1, 1)) for p in self.params}
            opening = self.rng.randrange(len(self.openings))
            plus, minus, c_k = {}, {}, {}
            for p in self.params:
                name = p["name"]
                c_k[name] = p["c"] / (k + 1) ** GAMMA
                shift = c_k[name] * signs[name]
                plus[name] = _clamp(round(self.theta[name] + shift), p)
                minus[name] = _clamp(round(self.theta[name] - shift), p)
            return {"k": k, "signs": signs, "c_k": c_k, "plus": plus, "minus": minus,
                    "opening": opening}

    def apply(self, task, result):
        """Moves theta by the pair's result and saves the state."""
        with self.lock:
            k = task["k"]
            for p in self.params:
                name = p["name"]
                a_k = p["a"] / (self.big_a + k + 1) ** ALPHA
                c_k = task["c_k"][name]
                r_k = a_k / c_k ** 2
                moved = self.theta[name] + r_k * c_k * result * task["signs"][name]
                self.theta[name] = min(max(moved, p["min"]), p["max"])
            self.finished += 1
            state = {"iterations": self.args.iterations, "finished": self.finished,
                     "theta": self.theta, "schedule": self.schedule(),
                     "opponent": self.opponent(), "rng": self.rng.getstate()}
            tmp = self.args.state + ".tmp"
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump(state, f)
            os.replace(tmp, self.args.state)
            shown = " ".join(f"{n}={v:.1f}" for n, v in list(self.theta.items())[:6])
            print(f"iteration {self.finished}/{self.args.iterations} pair {result:+.1f} {shown}"
                  + (" ..." if len(self.theta) > 6 else ""), flush=True)


def _clamp(value, p):
    return min(max(value, p["min"]), p["max"])


def _tuple_state(state):
    """random.setstate wants tuples where JSON gave lists."""
    version, internal, gauss = state
    return (version, tuple(internal), gauss)


def parse_options(items):
    """`--opponent-option NAME=VALUE` items as a dict for python-chess."""
    options = {}
    for item in items or []:
        name, sep, value = item.partition("=")
        if not sep or not name:
            sys.exit(f"--opponent-option {item}: expected NAME=VALUE")
        options[name] = value
    return options


def check_opponent(args):
    """Starts the opponent once and exits with a message when it does not
    start or lacks one of the `--opponent-option` names (a worker thread
    that failed would leave the run at its start values)."""
    try:
        engine = chess.engine.SimpleEngine.popen_uci(shlex.split(args.opponent))
    except (OSError, chess.engine.EngineError) as e:
        sys.exit(f"--opponent {args.opponent}: {e}")
    try:
        unknown = [n for n in parse_options(args.opponent_option) if n not in engine.options]
    finally:
        engine.quit()
    if unknown:
        sys.exit(f"--opponent-option: the opponent has no option {', '.join(unknown)}")


def points_against(engine, other, fen, variant, ours, theirs):
    """`engine`'s points from the opening `fen` played with both colours
    against `other` (0..2), at `ours` and `theirs` nodes per move."""
    white = play_game(engine, other, board_for(variant, fen), (ours, theirs))
    black = 1.0 - play_game(other, engine, board_for(variant, fen), (theirs, ours))
    return white + black


def worker(spsa):
    """Plays pairs until every iteration has started."""
    args = spsa.args
    plus = chess.engine.SimpleEngine.popen_uci(args.engine)
    minus = chess.engine.SimpleEngine.popen_uci(args.engine)
    opponent = None
    try:
        for engine in (plus, minus):
            engine.configure({"Hash": args.hash, "Threads": 1})
        if args.opponent:
            opponent = chess.engine.SimpleEngine.popen_uci(shlex.split(args.opponent))
            # Our defaults where the opponent has the option; the user's
            # options (checked in `check_opponent`).
            options = {k: v for k, v in {"Hash": args.hash, "Threads": 1}.items()
                       if k in opponent.options}
            options.update(parse_options(args.opponent_option))
            opponent.configure(options)
        while True:
            task = spsa.next_task()
            if task is None:
                return
            plus.configure(task["plus"])
            minus.configure(task["minus"])
            fen = spsa.openings[task["opening"]]
            if opponent is not None:
                nodes = (args.nodes, args.opponent_nodes)
                result = (points_against(plus, opponent, fen, args.variant, *nodes)
                          - points_against(minus, opponent, fen, args.variant, *nodes))
            else:
                points = points_against(plus, minus, fen, args.variant, args.nodes, args.nodes)
                result = points - (2.0 - points)
            spsa.apply(task, result)
    finally:
        plus.quit()
        minus.quit()
        if opponent is not None:
            opponent.quit()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", required=True, help="a tuning build of rukav")
    parser.add_argument("--openings", required=True, help="FEN/EPD file, one opening per line")
    parser.add_argument("--variant", default="crazyhouse")
    parser.add_argument("--iterations", type=int, default=4000, help="iterations: game pairs (two pairs with --opponent)")
    parser.add_argument("--nodes", type=int, default=5000, help="nodes per move")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--hash", type=int, default=16)
    parser.add_argument("--params", nargs="*", help="tune only these (default: all)")
    parser.add_argument("--step", action="append", metavar="NAME=VALUE",
                        help="this parameter's SPSA step instead of the engine's (repeatable)")
    parser.add_argument("--r-end", type=float, help="R_end for every tuned parameter (engine: 0.002)")
    parser.add_argument("--opponent", help="a fixed UCI opponent that both sides play instead "
                        "of each other (command line)")
    parser.add_argument("--opponent-nodes", type=int,
                        help="the opponent's nodes per move (default: --nodes)")
    parser.add_argument("--opponent-option", action="append", metavar="NAME=VALUE",
                        help="a UCI option of the opponent (repeatable)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--state", required=True, help="JSON state file (resumes)")
    args = parser.parse_args()
    if args.iterations < 1 or args.nodes < 1 or args.concurrency < 1:
        sys.exit("--iterations, --nodes and --concurrency must be positive")
    if args.opponent_nodes is None:
        args.opponent_nodes = args.nodes
    elif args.opponent_nodes < 1:
        sys.exit("--opponent-nodes must be positive")
    if args.opponent:
        check_opponent(args)
    spsa = Spsa(args)
    spsa.openings = read_openings(args.openings)
    threads = [threading.Thread(target=worker, args=(spsa,)) for _ in range(args.concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print("tuned values (rounded):")
    for p in spsa.params:
        value = round(spsa.theta[p["name"]])
        mark = "" if value == p["default"] else f"   (default {p['default']})"
        print(f"  {p['name']}: {value}{mark}")


if __name__ == "__main__":
    main()
