#!/usr/bin/env python3
"""Fuzzes the engine's protocols as a careless GUI or server would.

    python3 scripts/fuzz-protocol.py [--engine target/release/rukav] [--sessions 200] [--seed 1]

Each session starts the engine in UCI or xboard mode and sends a few dozen
random lines: real commands with mutated arguments (FENs with characters
changed, numbers of any size and sign, unknown words, option names with odd
values, moves that may be illegal, bytes that are not UTF-8, very long
lines), with searches short enough to finish. After each batch it checks
that the engine still answers `isready`/`ping`, did not exit, and printed no
panic; every 20 lines it also checks that a short search is answered
(`go movetime 50` gets a `bestmove`; xboard `go` gets a move, a result line
or an error). A failing session is printed with every line sent, so it can be
replayed by hand. Exit status 1 when any session failed.
"""
import argparse
import random
import re
import subprocess
import sys
import threading
import queue

FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R[PNBRQpnbrq] w KQkq - 0 1",
    "4k3/1Q~6/8/8/4b3/8/Kpp5/8/Qn b - - 0 1",
    "8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "rn6/8/8/8/1p2p3/8/8/8 w - - 0 26",
    "7k/6Q1/6K1/8/8/8/8/8[] b - - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 10 -+",
]
VARIANTS = ["chess", "crazyhouse", "bughouse", "antichess", "giveaway", "suicide", "kingschess", "xiangqi", ""]
CECP_VARIANTS = ["normal", "crazyhouse", "bughouse", "suicide", "antichess", "giveaway", "kingschess", "losers", ""]
OPTIONS = ["Hash", "Threads", "MultiPV", "Move Overhead", "UCI_Variant", "DropCheck", "DropMate",
           "PawnDrop7th", "PawnDrop2nd", "PromotedRevert", "DroppedRookCastles", "PromotionRule",
           "UCI_Bughouse", "PartnerMessages", "EvalFile", "Use NNUE", "Ponder", "Clear Hash", "Nope"]
MOVES = ["e2e4", "e7e5", "g1f3", "P@e4", "n@f6", "e1g1", "e7e8q", "e7e8k", "a1a1", "0000", "Q@h7", "zz"]
WORDS = ["", "x", "-", "moves", "startpos", "fen", "value", "name", "infinite", "\t", "é", "NaN"]


def number(rng):
    return rng.choice([
        "0", "1", "-1", "7", "300", "2000", "-9223372036854775808", "9223372036854775807",
        "18446744073709551615", "99999999999999999999999999", "1e9", "0x10", "1.5", "-0", "+5",
    ])


def mutate(rng, text):
    chars = list(text)
    for _ in range(rng.randint(1, 3)):
        op = rng.random()
        pos = rng.randrange(len(chars) + 1)
        alphabet = "pnbrqkPNBRQK12345678/[]~- wbKQkqa-h0123456789+x@"
        if op < 0.4 and chars:
            chars[min(pos, len(chars) - 1)] = rng.choice(alphabet)
        elif op < 0.7:
            chars.insert(pos, rng.choice(alphabet))
        elif chars:
            del chars[min(pos, len(chars) - 1)]
    return "".join(chars)


def fen(rng):
    f = rng.choice(FENS)
    return mutate(rng, f) if rng.random() < 0.6 else f


def uci_line(rng):
    r = rng.random()
    if r < 0.15:
        return f"position fen {fen(rng)}" + (" moves " + " ".join(rng.sample(MOVES, 2)) if rng.random() < 0.3 else "")
    if r < 0.25:
        return "position startpos moves " + " ".join(rng.choice(MOVES) for _ in range(rng.randint(0, 4)))
    if r < 0.45:
        opt = rng.choice(OPTIONS)
        val = rng.choice([number(rng), rng.choice(VARIANTS), "true", "false", "maybe", "check-only", "gambler", ""])
        if opt in ("Hash", "Threads") and rng.random() < 0.7:
            val = str(rng.choice([1, 2, 8, 16, 64, 300]))
        return f"setoption name {opt} value {val}"
    if r < 0.6:
        parts = ["go"]
        for key in rng.sample(["wtime", "btime", "winc", "binc", "movestogo", "nodes", "mate", "searchmoves"], rng.randint(0, 4)):
            parts += [key, number(rng) if key != "searchmoves" else rng.choice(MOVES)]
        parts += ["depth", str(rng.randint(1, 5))]
        return " ".join(parts)
    if r < 0.7:
        return "bughouse " + rng.choice([
            f"holding {rng.choice(['QRbn', '[N] [p]', '-', 'K', 'x', 'P' * 70])}",
            f"ptell {rng.choice(['sit', 'go', '+n', '-q', '---trades', 'help', 'dead', 'time ' + number(rng), 'hello'])}",
            f"clocks {number(rng)} {number(rng)} {number(rng)} {number(rng)}",
            f"partner fen {fen(rng)}", "partner startpos moves e2e4", f"gambler white {fen(rng)}", "",
        ])
    if r < 0.8:
        return rng.choice(["stop", "ponderhit", "ucinewgame", "d", "eval", "isready", "debug on", "go perft 2"])
    if r < 0.9:
        return " ".join(rng.choice(WORDS + MOVES) for _ in range(rng.randint(1, 6)))
    return "x" * rng.choice([1000, 100000])


def xboard_line(rng):
    r = rng.random()
    if r < 0.15:
        return f"setboard {fen(rng)}"
    if r < 0.3:
        return rng.choice(["usermove ", ""]) + rng.choice(MOVES)
    if r < 0.45:
        return rng.choice(["time", "otim", "st", "sd", "memory", "cores"]) + " " + number(rng)
    if r < 0.5:
        return f"level {number(rng)} {rng.choice(['5', '1:30', number(rng)])} {number(rng)}"
    if r < 0.6:
        return f"variant {rng.choice(CECP_VARIANTS)}"
    if r < 0.7:
        return f"holding [{rng.choice(['QR', 'N', '', 'K'])}] [{rng.choice(['bn', 'p', 'x'])}]"
    if r < 0.78:
        return f"ptell {rng.choice(['sit', 'go', '+n', 'help', '?', 'hello', 'time ' + number(rng)])}"
    if r < 0.85:
        return f"option {rng.choice(OPTIONS)}={rng.choice([number(rng), 'true', 'crazyhouse', ''])}"
    if r < 0.95:
        return rng.choice(["new", "force", "go", "playother", "white", "black", "?", "post", "nopost",
                           "undo", "remove", "result 1-0", "partner bob", "partner", "hint", "draw"])
    return " ".join(rng.choice(WORDS + MOVES) for _ in range(rng.randint(1, 6)))


class Engine:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE)
        self.q = queue.Queue()
        self.err = []
        threading.Thread(target=self._read, args=(self.p.stdout, self.q), daemon=True).start()
        threading.Thread(target=self._read, args=(self.p.stderr, None), daemon=True).start()

    def _read(self, stream, q):
        for raw in stream:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            if q is None:
                self.err.append(line)
            else:
                q.put(line)
        if q is not None:
            q.put(None)

    def send(self, data):
        self.p.stdin.write(data + b"\n")
        self.p.stdin.flush()

    def wait_for(self, want, timeout):
        return self.wait_until(f"'{want}'", lambda line: line == want, timeout)

    def wait_until(self, what, accept, timeout):
        """None once a line that `accept`s arrives, else what went wrong."""
        while True:
            try:
                line = self.q.get(timeout=timeout)
            except queue.Empty:
                return f"no {what} within {timeout} s"
            if line is None:
                return f"engine exited (status {self.p.wait()})"
            if accept(line):
                return None

    def close(self):
        try:
            self.p.kill()
        except OSError:
            pass


XBOARD_ANSWER = re.compile(r"^(move \S+|(1-0|0-1|1/2-1/2) \{.*\}|Error.*|Illegal move.*|# no legal move.*|# sitting .*)$")


def answers_go(e, protocol, sent):
    """Whatever state the session left, a short search is answered: UCI with
    `bestmove` (`(none)` in a finished game), xboard with a move, a result
    line, an error or, on a bughouse board that waits (for a piece to block
    a check, or sitting), the comment that says so -- never silence, which leaves a GUI's
    clock running."""
    if protocol == "uci":
        e.send(b"go movetime 50")
        sent.append("go movetime 50")
        return e.wait_until("bestmove after go movetime 50", lambda l: l.startswith("bestmove"), 60)
    e.send(b"sd 3\ngo")
    sent.append("sd 3\ngo")
    return e.wait_until("move, result or error after go", XBOARD_ANSWER.match, 60)


def session(path, rng, protocol, lines):
    e = Engine(path)
    sent = []
    problem = None
    try:
        first = b"uci" if protocol == "uci" else b"xboard\nprotover 2"
        e.send(first)
        sent.append(first.decode())
        for i in range(lines):
            if rng.random() < 0.03:
                raw = bytes(rng.randrange(256) for _ in range(rng.randint(1, 40))).replace(b"\n", b"")
            else:
                raw = (uci_line(rng) if protocol == "uci" else xboard_line(rng)).encode()
            e.send(raw)
            sent.append(raw.decode("utf-8", "replace")[:300])
            if i % 10 == 9:
                if protocol == "uci":
                    e.send(b"stop\nisready")
                    problem = e.wait_for("readyok", 60)
                else:
                    e.send(b"force\nping %d" % i)
                    problem = e.wait_for(f"pong {i}", 60)
                if not problem and i % 20 == 19:
                    problem = answers_go(e, protocol, sent)
                if problem:
                    break
        if not problem:
            e.send(b"quit")
            try:
                code = e.p.wait(timeout=30)
                if code != 0:
                    problem = f"exit status {code} after quit"
            except subprocess.TimeoutExpired:
                problem = "no exit after quit"
        if not problem and any("panicked" in l for l in e.err):
            problem = "a panic on stderr"
    except (BrokenPipeError, OSError) as ex:
        problem = f"pipe closed: {ex}"
    finally:
        e.close()
    return problem, sent, e.err


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="target/release/rukav")
    ap.add_argument("--sessions", type=int, default=200)
    ap.add_argument("--lines", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    failures = 0
    for n in range(args.sessions):
        rng = random.Random(args.seed * 100003 + n)
        protocol = "uci" if n % 2 == 0 else "xboard"
        problem, sent, err = session(args.engine, rng, protocol, args.lines)
        if problem:
            failures += 1
            print(f"session {n} ({protocol}, seed {args.seed}): {problem}")
            print("  sent:\n    " + "\n    ".join(sent[-40:]))
            if err:
                print("  stderr:\n    " + "\n    ".join(err[-20:]))
    print(f"{args.sessions} sessions, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
