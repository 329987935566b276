#!/usr/bin/env python3
"""H: a scripted bughouse partner that behaves like a (casual) person.

A UCI engine process for `rukav arena` (issue 71, item 6): it wraps an inner
UCI engine (by default Rukav at a low `Skill Level`, with `UCI_Bughouse` and
`PartnerMessages` on) and passes the UCI dialogue and the bughouse extension
(uci-protocol.md, "Bughouse extension") through, except for the talk:

* What H says. The inner engine's `info string ptell CODE` lines (`++n`,
  `--q`, `sit`, `go`, `trades`, `dead`, `x`) are read with `rukav ptell` and
  each reading (`need n 2`) is worded as a person would, with a phrase of that
  meaning chosen at random from scripts/human-phrases.txt (not the CI corpus).
  The phrase goes out as `info string ptell PHRASE` 1 to 3 seconds later, as
  typing takes, from a typist thread (so it goes out while H waits for input
  too); tells keep their order (one is due at least 0.3 s after the one
  before, so a burst of tells can take longer than 3 s). A tell still being
  typed that the next one takes back is not sent, nor is the next one (`sit`
  then `go`, `dead` then `x`), and `trades` takes back unsent bans (and is
  not sent when no ban was): a person deletes what he has not sent yet.
  `bestmove` is never delayed. At the first `go` of the first game H greets
  ("hi partner, glhf"), as a person does, not as a bot. Tells still being
  typed when a new game starts (`ucinewgame`) are dropped.
* What H hears. A `bughouse ptell TEXT` from the partner is read with
  `rukav ptell` and obeyed as a casual player would:
    - `sit`: only when H's own clock is ahead of its opponent's by more than
      `--sit-margin` (1 s; the clocks of the latest `bughouse clocks`, or
      `go wtime/btime`, run on to now);
      otherwise ignored, and half the time H says so ("cant sit, im down on
      time").
    - `need P L`: a share (`--ignore`, default 30%) is ignored; the rest goes to
      the inner engine at level 1 only (`+p`: take one when it costs nothing).
    - `ban P L`: the same share is ignored; the rest goes on at its level
      (`-p`, `--p`, `---p`).
    - `go`, `fast`, `slow`, `dead`, `alive` (`x`), `trades good` (`+trades`),
      `trades bad` (`-trades`), `cancel`, `unavailable` (`sitting`),
      `move M`: passed on as codes the inner Rukav reads.
    - `time`, `otim`, `chat`, `help`, `unknown`: nothing (a person shrugs).
* Options. `--inner-option NAME=VALUE` options are set on the inner engine at
  start and pinned: a `setoption` of the same name from the arena is dropped
  (logged). So `--team1-option PartnerMessages=false` turns Rukav's talk off
  while H, its partner on the same team, keeps talking; give H
  `--inner-option PartnerMessages=false` for a silent H.

The log (`--log FILE`, JSON lines, appended; every record has `pid`, `name`,
`game` (1 = the first `ucinewgame`), `moves` (H's moves in that game so far)
and `t` (seconds, monotonic clock of this machine, shared by all H processes)):
  {"event": "start", ...}                    H started (options, seed)
  {"event": "newgame"}                        a `ucinewgame`
  {"event": "go", "color", "own_ms", "opp_ms"} a search started
  {"event": "move", "move"}                   H's `bestmove`
  {"event": "said", "code", "meaning", "phrase", "delay_s"}
                                              a tell H sent (meaning: the
                                              readings of the inner code;
                                              code null for greet/nosit)
  {"event": "dropped", "code", "phrase", "why"} a tell not sent (new game,
                                              taken back)
  {"event": "heard", "text", "readings", "actions": [{"reading", "action",
      "sent"}], "own_ms", "opp_ms"}           a partner tell; action is
                                              obeyed / ignored-share /
                                              ignored-clock / nothing
  {"event": "sat", "text"}                    the inner engine held a move
                                              (`info string sitting ...`)
  {"event": "pinned", "option", "value"}      an arena setoption dropped
scripts/human-partner-stats.py reads it.

Usage (a seat of `rukav arena`):
  rukav arena --white-a target/release/rukav \\
    --black-b "python3 scripts/human-partner.py --rukav target/release/rukav --seed 1 --log h.jsonl" ...
Self-test (phrase list against the vocabulary and the CI corpus, and the
forward codes against the reader): scripts/human-partner.py --self-test
"""

import argparse
import json
import os
import random
import re
import shlex
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_PHRASES = os.path.join(HERE, "human-phrases.txt")
DEFAULT_CORPUS = os.path.join(ROOT, "tests", "data", "partner_tells.txt")
DEFAULT_RUKAV = os.path.join(ROOT, "target", "release", "rukav")

# One reading of `rukav ptell` (uci-protocol.md, "Partner tells").
READING = re.compile(
    r"^(sit|go|fast|slow|trades good|trades bad|cancel|alive|dead|unavailable"
    r"|chat|help|unknown|(need|ban) [pnbrq] [123]|move \S+|(time|otim) \d+)$"
)
# What H says on its own; read right when Rukav reads it as `chat`.
OWN_MEANINGS = {"greet": "chat", "nosit": "down"}

# Tells that take each other back while still being typed.
OPPOSITE = {("sit",): ("go",), ("go",): ("sit",), ("dead",): ("alive",), ("alive",): ("dead",)}
# Seconds between two tells typed one after the other, at least.
TYPING_GAP_S = 0.3

# Readings H passes on to its inner engine, and the code it sends for each
# (the self-test checks that the reader reads each code as its reading).
FORWARD = {
    "go": "go",
    "fast": "fast",
    "slow": "slow",
    "dead": "dead",
    "alive": "x",
    "trades good": "+trades",
    "trades bad": "-trades",
    "cancel": "cancel",
    "unavailable": "sitting",
}


def load_phrases(path):
    """`MEANING | PHRASE` lines -> {meaning: [phrase, ...]} (file order)."""
    phrases = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if "|" not in line:
                raise ValueError(f"{path}:{n}: not 'MEANING | PHRASE': {line}")
            meaning, phrase = (s.strip() for s in line.split("|", 1))
            if not phrase:
                raise ValueError(f"{path}:{n}: empty phrase")
            phrases.setdefault(meaning, []).append(phrase)
    return phrases


def load_corpus(path):
    """The tells of the CI corpus (`TELL => READINGS` lines)."""
    tells = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip() and not line.lstrip().startswith("#") and "=>" in line:
                tells.append(line.split("=>", 1)[0].strip())
    return tells


def normal(text):
    """Case and spacing folded, for comparing phrases with the corpus."""
    return " ".join(text.lower().split())


def expected_readings(meaning):
    """The readings a phrase of `meaning` should get (sorted list)."""
    return [OWN_MEANINGS.get(meaning, meaning)]


class Reader:
    """`rukav ptell TEXT`, cached and thread-safe."""

    def __init__(self, rukav):
        self.rukav = rukav
        self.cache = {}
        self.lock = threading.Lock()

    def read(self, text):
        with self.lock:
            if text in self.cache:
                return self.cache[text]
        out = subprocess.run(
            [self.rukav, "ptell", text], capture_output=True, text=True, check=True
        ).stdout
        readings = [line.strip() for line in out.splitlines() if line.strip()]
        with self.lock:
            self.cache[text] = readings
        return readings


def self_test(args):
    """Checks the phrase list and the forward codes; returns the exit status."""
    phrases = load_phrases(args.phrases)
    corpus = {normal(t) for t in load_corpus(args.corpus)}
    errors = []
    seen = {}
    total = 0
    for meaning, items in phrases.items():
        if meaning not in OWN_MEANINGS and not READING.match(meaning):
            errors.append(f"meaning '{meaning}' is not in the vocabulary of rukav ptell")
        for p in items:
            total += 1
            if normal(p) in corpus:
                errors.append(f"'{p}' ({meaning}) is in the CI corpus {args.corpus}")
            if normal(p) in seen:
                errors.append(f"'{p}' is listed twice ({seen[normal(p)]}, {meaning})")
            seen[normal(p)] = meaning
    for need in ("greet", "nosit", "sit", "go", "trades good", "dead", "alive"):
        if need not in phrases:
            errors.append(f"no phrase for '{need}' (the inner Rukav sends it)")
    for kind in "pnbrq":
        for what in ("need", "ban"):
            if f"{what} {kind} 2" not in phrases:
                errors.append(f"no phrase for '{what} {kind} 2' (the inner Rukav sends it)")
    if os.path.exists(args.rukav):
        reader = Reader(args.rukav)
        codes = dict(FORWARD)
        codes.update({"sit": "sit"})
        for kind in "pnbrq":
            for level in (1, 2, 3):
                codes[f"ban {kind} {level}"] = "-" * level + kind
            codes[f"need {kind} 1"] = "+" + kind
        for reading, code in codes.items():
            got = reader.read(code)
            if got != [reading]:
                errors.append(f"code '{code}' is read as {got}, not ['{reading}']")
    else:
        print(f"note: {args.rukav} not found; forward codes not checked")
    for e in errors:
        print("FAIL:", e)
    print(f"{total} phrases, {len(phrases)} meanings, {len(errors)} problems")
    return 1 if errors else 0


class Human:
    """The wrapper: the arena on stdin/stdout, the inner engine on a pipe."""

    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.rng_lock = threading.Lock()
        self.out_lock = threading.Lock()
        self.log_lock = threading.Lock()
        self.reader = Reader(args.rukav)
        self.phrases = load_phrases(args.phrases)
        self.pinned = {}
        for opt in args.inner_option:
            name, _, value = opt.partition("=")
            self.pinned[name.strip()] = value.strip()
        self.log_file = open(args.log, "a", encoding="utf-8") if args.log else None
        # Game state, guarded by `state`.
        self.state = threading.Condition()
        self.game = 0
        self.moves = 0
        self.greeted = False
        self.thinking = False
        self.color = None  # "w"/"b" from the position at the latest go
        self.stm = "w"
        self.clocks = None  # (white ms, black ms) of H's board at the latest go
        self.t_go = None
        self.t_move = None
        self.typing = []  # queued tells: dicts with meaning/phrase/code/game
        self.bans_out = False  # a ban was sent and not lifted since (this game)
        self.quitting = False
        cmd = shlex.split(args.inner) if args.inner else [args.rukav]
        self.inner = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.id_lines = []
        self.option_lines = []
        self.handshake()

    # --- plumbing -----------------------------------------------------------

    def out(self, line):
        with self.out_lock:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()

    def send(self, line):
        try:
            self.inner.stdin.write(line + "\n")
            self.inner.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass

    def log(self, event, **fields):
        if not self.log_file:
            return
        rec = {
            "event": event,
            "t": round(time.monotonic(), 3),
            "pid": os.getpid(),
            "name": self.args.name,
            "game": self.game,
            "moves": self.moves,
        }
        rec.update(fields)
        with self.log_lock:
            self.log_file.write(json.dumps(rec) + "\n")
            self.log_file.flush()

    def chance(self):
        with self.rng_lock:
            return self.rng.random()

    def choose(self, items):
        with self.rng_lock:
            return self.rng.choice(items)

    def handshake(self):
        """`uci` and the pinned options, before the arena's `uci`."""
        self.send("uci")
        for line in self.inner.stdout:
            line = line.rstrip("\n")
            if line == "uciok":
                break
            if line.startswith("id "):
                self.id_lines.append(line)
            elif line.startswith("option "):
                self.option_lines.append(line)
        for name, value in self.pinned.items():
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        for line in self.inner.stdout:
            if line.strip() == "readyok":
                break
        self.log("start", seed=self.args.seed, pinned=self.pinned, ignore=self.args.ignore)

    # --- what H says --------------------------------------------------------

    def phrase_for(self, reading):
        """A phrase for one reading: its own list, else the same request at
        another level, else the reading itself."""
        if reading in self.phrases:
            return self.choose(self.phrases[reading])
        m = re.match(r"(need|ban) ([pnbrq]) \d$", reading)
        if m:
            near = [k for k in self.phrases if k.startswith(f"{m[1]} {m[2]} ")]
            if near:
                return self.choose(self.phrases[self.choose(sorted(near))])
        return reading

    def say(self, meaning, phrase, code=None):
        """Queues a tell for the typist, due 1-3 s from now (`--delay`) and
        after the tell queued before it (typed one after the other). A tell
        still being typed that the new one takes back is not sent, nor is
        the new one (`sit` then `go`, `dead` then `x`: the partner never
        needed to know); `trades good` takes back unsent bans and is not
        sent when the partner was told of no ban."""
        now = time.monotonic()
        lo, hi = self.args.delay
        with self.rng_lock:
            delay = self.rng.uniform(lo, hi)
        with self.state:
            for i, item in enumerate(self.typing):
                if OPPOSITE.get(tuple(item["meaning"])) == tuple(meaning):
                    self.typing.pop(i)
                    self.log("dropped", code=item["code"], phrase=item["phrase"],
                             why=f"taken back by {code}")
                    self.log("dropped", code=code, phrase=phrase,
                             why=f"takes back {item['code']}")
                    self.state.notify_all()
                    return
            if "trades good" in meaning:
                for item in [t for t in self.typing if all(m.startswith("ban ") for m in t["meaning"])]:
                    self.typing.remove(item)
                    self.log("dropped", code=item["code"], phrase=item["phrase"],
                             why=f"taken back by {code}")
                if not self.bans_out:
                    self.log("dropped", code=code, phrase=phrase, why="no ban was sent")
                    self.state.notify_all()
                    return
            due = now + delay
            if self.typing:
                due = max(due, self.typing[-1]["due"] + TYPING_GAP_S)
            self.typing.append(
                {"meaning": meaning, "phrase": phrase, "code": code, "game": self.game,
                 "queued": now, "due": due}
            )
            self.state.notify_all()

    def typist(self):
        """Sends each queued tell when it is due (a thread, so tells go out
        while H waits for input); tells of a game that ended are dropped."""
        while True:
            with self.state:
                while not self.quitting:
                    if not self.typing:
                        self.state.wait()
                        continue
                    item = self.typing[0]
                    if item["game"] != self.game:
                        break
                    left = item["due"] - time.monotonic()
                    if left <= 0:
                        break
                    self.state.wait(left)
                if self.quitting:
                    return
                self.typing.pop(0)
                if item["game"] != self.game:
                    self.log("dropped", code=item["code"], phrase=item["phrase"], why="new game")
                    continue
                self.out(f"info string ptell {item['phrase']}")
                if any(m.startswith("ban ") for m in item["meaning"]):
                    self.bans_out = True
                elif {"trades good", "cancel"} & set(item["meaning"]):
                    self.bans_out = False
                self.log(
                    "said",
                    code=item["code"],
                    meaning=item["meaning"],
                    phrase=item["phrase"],
                    delay_s=round(time.monotonic() - item["queued"], 3),
                )

    def inner_lines(self):
        """The inner engine's output: tells rewritten, the rest passed on."""
        for line in self.inner.stdout:
            line = line.rstrip("\n")
            if line.startswith("info string ptell "):
                code = line[len("info string ptell "):].strip()
                readings = self.reader.read(code)
                words = [self.phrase_for(r) for r in readings if r not in ("chat", "unknown")]
                if words:
                    self.say(readings, ", ".join(words), code)
                continue
            if line.startswith("bestmove"):
                with self.state:
                    self.thinking = False
                    self.t_move = time.monotonic()
                    self.moves += 1
                    self.out(line)
                    parts = line.split()
                    self.log("move", move=parts[1] if len(parts) > 1 else "")
                continue
            if line.startswith("info string sitting"):
                self.log("sat", text=line[len("info string sitting"):].strip())
            if line.startswith("id name "):
                line = f"id name {self.args.name} ({line[len('id name '):]})"
            self.out(line)
        # The inner engine is gone: so is H (the arena sees the end of output).
        self.log("inner-exit")
        sys.stdout.flush()
        os._exit(0 if self.quitting else 1)

    # --- what H hears -------------------------------------------------------

    def clocks_now(self):
        """(own ms, opponent's ms) now, from the clocks at the latest go run
        on; None before H's first go of the game."""
        if self.clocks is None or self.color is None:
            return None
        white, black = self.clocks
        own, opp = (white, black) if self.color == "w" else (black, white)
        now = time.monotonic()
        if self.thinking:
            own -= (now - self.t_go) * 1000
        else:
            own -= ((self.t_move or now) - self.t_go) * 1000
            opp -= (now - (self.t_move or now)) * 1000
        return int(own), int(opp)

    def heard(self, text):
        readings = self.reader.read(text)
        actions = []
        clocks = self.clocks_now()
        for r in readings:
            kind = r.split()[0]
            act = {"reading": r, "action": "nothing", "sent": None}
            if r == "sit":
                if clocks is not None and clocks[0] > clocks[1] + self.args.sit_margin * 1000:
                    act.update(action="obeyed", sent="sit")
                else:
                    act["action"] = "ignored-clock"
                    if self.chance() < 0.5:
                        self.say(["nosit"], self.choose(self.phrases["nosit"]))
            elif kind in ("need", "ban"):
                piece, level = r.split()[1], int(r.split()[2])
                if self.chance() < self.args.ignore:
                    act["action"] = "ignored-share"
                else:
                    code = "+" + piece if kind == "need" else "-" * level + piece
                    act.update(action="obeyed", sent=code)
            elif r in FORWARD:
                act.update(action="obeyed", sent=FORWARD[r])
            elif kind == "move":
                act.update(action="obeyed", sent=r)
            actions.append(act)
        for act in actions:
            if act["sent"]:
                self.send(f"bughouse ptell {act['sent']}")
        self.log(
            "heard",
            text=text,
            readings=readings,
            actions=actions,
            own_ms=clocks and clocks[0],
            opp_ms=clocks and clocks[1],
        )

    def arena_line(self, line):
        words = line.split()
        if not words:
            return
        cmd = words[0]
        if cmd == "uci":
            for l in self.id_lines:
                if l.startswith("id name "):
                    l = f"id name {self.args.name} ({l[len('id name '):]})"
                self.out(l)
            for l in self.option_lines:
                self.out(l)
            self.out("uciok")
            return
        if cmd == "setoption":
            m = re.match(r"setoption name (.*?)(?: value (.*))?$", line)
            if m and m[1] in self.pinned:
                self.log("pinned", option=m[1], value=m[2])
                return
        elif cmd == "ucinewgame":
            with self.state:
                self.game += 1
                self.moves = 0
                self.bans_out = False
                self.thinking = False
                self.clocks = None
                self.color = None
                self.state.notify_all()
            self.log("newgame")
        elif cmd == "position":
            self.stm = side_to_move(words)
        elif cmd == "bughouse" and len(words) >= 2 and words[1] == "ptell":
            self.heard(line.split(None, 2)[2] if len(words) > 2 else "")
            return
        elif cmd == "bughouse" and len(words) == 6 and words[1] == "clocks":
            self.clocks = (int(words[2]), int(words[3]))
        elif cmd == "go":
            with self.state:
                self.color = self.stm
                self.thinking = True
                self.t_go = time.monotonic()
                w = dict(zip(words[1::2], words[2::2]))
                if "wtime" in w and "btime" in w:
                    self.clocks = (int(w["wtime"]), int(w["btime"]))
            clocks = self.clocks_now()
            self.log("go", color=self.color, own_ms=clocks and clocks[0],
                     opp_ms=clocks and clocks[1])
            if not self.greeted:
                self.greeted = True
                self.say(["greet"], self.choose(self.phrases["greet"]))
        elif cmd == "quit":
            with self.state:
                self.quitting = True
                self.state.notify_all()
        self.send(line)

    def run(self):
        threading.Thread(target=self.inner_lines, daemon=True).start()
        threading.Thread(target=self.typist, daemon=True).start()
        for line in sys.stdin:
            line = line.strip()
            self.arena_line(line)
            if line == "quit":
                break
        with self.state:
            self.quitting = True
            self.state.notify_all()
        self.send("quit")
        try:
            self.inner.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.inner.kill()


def side_to_move(words):
    """The side to move ("w"/"b") of a UCI `position` command."""
    moves = words[words.index("moves") + 1:] if "moves" in words else []
    stm = "w"
    if len(words) > 2 and words[1] == "fen":
        stm = words[3] if len(words) > 3 and words[3] in ("w", "b") else "w"
    if len(moves) % 2:
        stm = "b" if stm == "w" else "w"
    return stm


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--rukav", default=DEFAULT_RUKAV,
                    help="the rukav binary: reads tells (rukav ptell) and is the "
                         "inner engine unless --inner says otherwise")
    ap.add_argument("--inner", help="inner engine command (default: --rukav)")
    ap.add_argument("--inner-option", action="append", metavar="NAME=VALUE",
                    help="option set on the inner engine and pinned (repeatable; default: "
                         "'Skill Level=8', PartnerMessages=true, UCI_Bughouse=true)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (phrases, delays, ignores)")
    ap.add_argument("--ignore", type=float, default=0.3,
                    help="share of need/ban requests ignored (default 0.3)")
    ap.add_argument("--sit-margin", type=float, default=1.0, metavar="S",
                    help="sit only when H's clock is this many seconds ahead of its "
                         "opponent's (default 1)")
    ap.add_argument("--delay", type=float, nargs=2, default=[1.0, 3.0], metavar=("MIN", "MAX"),
                    help="seconds of typing before a tell goes out (default 1 3)")
    ap.add_argument("--name", default="H", help="name in `id name` and in the log")
    ap.add_argument("--phrases", default=DEFAULT_PHRASES)
    ap.add_argument("--corpus", default=DEFAULT_CORPUS, help="the CI corpus (for --self-test)")
    ap.add_argument("--log", help="append JSON lines of what H said, heard and did")
    ap.add_argument("--self-test", action="store_true",
                    help="check the phrase list and the forward codes, then exit")
    args = ap.parse_args()
    if args.self_test:
        sys.exit(self_test(args))
    if args.inner_option is None:
        args.inner_option = ["Skill Level=8", "PartnerMessages=true", "UCI_Bughouse=true"]
    Human(args).run()


if __name__ == "__main__":
    main()
