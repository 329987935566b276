#!/usr/bin/env python3
"""H: a scripted bughouse partner that behaves like a (casual) person.

An engine process (issue 71, item 6): a UCI engine for `rukav arena`, or with
`--cecp` a CECP (xboard protocol 2) engine for an xboard zippy bot on FICS
(scripts/fics/). It wraps an inner engine (by default Rukav at a low `Skill
Level`, with `PartnerMessages` on, and `UCI_Bughouse` over UCI) and passes
the dialogue through (UCI and its bughouse extension, uci-protocol.md; or
CECP with `holding`, `partner`, `ptell`), except for the talk:

* What H says. The inner engine's tells (`info string ptell CODE`; CECP:
  `tellics ptell CODE`), `++n`, `--q`, `sit`, `go`, `trades`, `dead`, `x`, are
  read with `rukav ptell` and each reading (`need n 2`) is worded as a person
  would, with a phrase of that meaning chosen at random from
  scripts/human-phrases.txt (not the CI corpus).
  The phrase goes out as `info string ptell PHRASE` (CECP: `tellics ptell
  PHRASE`, which xboard sends to the server as the account's partner tell)
  1 to 3 seconds later, as
  typing takes, from a typist thread (so it goes out while H waits for input
  too); tells keep their order (one is due at least 0.3 s after the one
  before, so a burst of tells can take longer than 3 s). A tell still being
  typed that the next one takes back is not sent, nor is the next one (`sit`
  then `go`, `dead` then `x`), and `trades` takes back unsent bans (and is
  not sent when no ban was): a person deletes what he has not sent yet.
  The move (`bestmove`; CECP `move`) is never delayed. At the first search of
  the first game H greets ("hi partner, glhf"), as a person does, not as a
  bot. Tells still being typed when a new game starts (`ucinewgame`, CECP
  `new`) or the game ends (CECP `result`) are dropped.
* What H hears. A tell from the partner (`bughouse ptell TEXT`; CECP: `ptell
  TEXT`, as zippy passes on "X (your partner) tells you: TEXT") is first
  looked at as a person would: a bot's greeting ("Hello! I am Sjeng ...",
  "Hi, I am Rukav, a bot ...") makes the partner a bot, and a bot's answer to
  H's tells (`ok...`, `sorry...`, as Rukav tells them apart) and a "?" ask
  for nothing. The rest is read with `rukav ptell` and obeyed as a casual
  player would:
    - `sit`: only when H's own clock is ahead of its opponent's by more than
      `--sit-margin` (1 s; the clocks of the latest `bughouse clocks`, or
      `go wtime/btime`; CECP: the `time`/`otim` of H's latest search; run on
      to now: H's while it thinks, the opponent's after H's move);
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
  What is passed on goes to the inner engine as `bughouse ptell CODE` (CECP:
  `ptell CODE`).
* CECP: Rukav greets a new partner (`partner NAME`) and talks to him in words
  until he greets as a bot: H mutes that greeting and answers it with a bot's
  greeting (`ptell I am Rukav ...`), after every `partner NAME`, so that the
  inner engine talks to H in codes. `--inner-depth N` sends `sd N` after
  every `new` (a plumbing test without search time).
* Options. `--inner-option NAME=VALUE` options are set on the inner engine at
  start and pinned: a `setoption` (CECP: `option NAME=VALUE`) of the same
  name from the GUI is dropped (logged). So `--team1-option
  PartnerMessages=false` turns Rukav's talk off
  while H, its partner on the same team, keeps talking; give H
  `--inner-option PartnerMessages=false` for a silent H.

The log (`--log FILE`, JSON lines, appended; every record has `pid`, `name`,
`game` (1 = the first `ucinewgame` or `new`), `moves` (H's moves in that game
so far) and `t` (seconds, monotonic clock of this machine, shared by all H
processes)):
  {"event": "start", "protocol", ...}        H started (options, seed)
  {"event": "newgame"}                        a `ucinewgame` (CECP `new`)
  {"event": "go", "color", "own_ms", "opp_ms"} a search started (CECP: `go`,
                                              or `usermove` out of force mode)
  {"event": "move", "move"}                   H's `bestmove` (CECP `move`)
  {"event": "said", "code", "meaning", "phrase", "delay_s"}
                                              a tell H sent (meaning: the
                                              readings of the inner code;
                                              code null for greet/nosit)
  {"event": "dropped", "code", "phrase", "why"} a tell not sent (new game,
                                              game over, taken back)
  {"event": "heard", "text", "readings", "actions": [{"reading", "action",
      "sent"}], "own_ms", "opp_ms"}           a partner tell; action is
                                              obeyed / ignored-share /
                                              ignored-clock / nothing
  {"event": "answer", "text", "why"}          a partner tell that asks for
                                              nothing (bot greeting, answer,
                                              question)
  {"event": "muted", "text"}                  an inner tell that is no code
                                              (the inner Rukav's greeting)
  {"event": "sat", "text"}                    the inner engine held a move
                                              (`info string sitting ...`;
                                              CECP `# sitting ...`)
  {"event": "pinned", "option", "value"}      a GUI option dropped
  {"event": "partner", "partner"}             CECP `partner [NAME]`
  {"event": "result", "result"}               CECP `result`
scripts/human-partner-stats.py reads it; scripts/fics/analyze.py reads it
beside the xboard logs of a FICS run.

Usage (a seat of `rukav arena`):
  rukav arena --white-a target/release/rukav \\
    --black-b "python3 scripts/human-partner.py --rukav target/release/rukav --seed 1 --log h.jsonl" ...
On FICS (an xboard bot's engine, -fcp): scripts/fics/bots.sh seat `human`.
Self-test (phrase list against the vocabulary and the CI corpus, the forward
codes against the reader, and a UCI and a CECP dialogue around a fake inner
engine): scripts/human-partner.py --self-test
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

# A bot's greeting and a bot's answer to a tell, told apart as Rukav tells
# them apart (src/engine/brain/talk.rs: is_bot_greeting,
# is_bot_acknowledgement): Sjeng's "Hello! I am Sjeng ...", Rukav's "Hi, I am
# Rukav, a bot ...", Sjeng's "Ok, Knight is VERY good", Rukav's "ok: ...".
BOT_GREETINGS = ("i am sjeng", "thanks for being my partner", "sunsetter", "i am rukav")
BOT_ANSWERS = ("ok", "sorry", "i play", "i sit", "greetings")


def is_bot_greeting(text):
    t = text.lower()
    return any(g in t for g in BOT_GREETINGS) or t.startswith("partner fairy-stockfish")


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


# A fake inner engine for the dialogue self-test: UCI or CECP (by its first
# command); it echoes what H passes on to it (`# got ...` / `info string got
# ...`), greets a partner as Rukav does and tells `++n` and a sit before
# every move.
FAKE_INNER = r"""
import sys
cecp = False
def out(s):
    print(s, flush=True)
for line in sys.stdin:
    line = line.strip()
    w = line.split()
    c = w[0] if w else ""
    if c == "uci":
        out("id name Fake")
        out("option name Skill Level type spin default 20 min 0 max 20")
        out("uciok")
    elif c == "isready":
        out("readyok")
    elif c == "xboard":
        cecp = True
    elif c == "protover":
        out('feature ping=1 usermove=1 time=1 myname="Fake" variants="bughouse"')
        out("feature done=1")
    elif c == "ping":
        out("pong " + w[1])
    elif c == "partner" and len(w) > 1:
        out("tellics ptell Hi, I am Rukav, a bot. Ptell me in words or codes: sit, go")
    elif c in ("ptell", "option", "setoption", "sd") or line.startswith("bughouse ptell"):
        out(("# got " if cecp else "info string got ") + line)
    elif c in ("usermove", "go"):
        if cecp:
            out("tellics ptell ++n")
            out("# sitting as the partner asked at most 100 ms")
            out("move a7a6")
        else:
            out("info string ptell ++n")
            out("info string sitting as the partner asked at most 100 ms")
            out("bestmove e2e4")
    elif c == "quit":
        break
"""


class Dialogue:
    """H (this script) run as a GUI runs it, around FAKE_INNER."""

    def __init__(self, args, extra, log):
        import queue
        cmd = [sys.executable, os.path.abspath(__file__), "--rukav", args.rukav,
               "--inner", f"{shlex.quote(sys.executable)} -c {shlex.quote(FAKE_INNER)}",
               "--delay", "0.05", "0.1", "--ignore", "0", "--seed", "1",
               "--log", log] + extra
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.lines = queue.Queue()
        self.seen = []
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, *lines):
        for line in lines:
            self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def expect(self, what, timeout=5.0):
        """Lines up to the first that matches the regex `what` (that line
        last), or None after `timeout` s; every line is kept in `seen`."""
        import queue
        got = []
        end = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.01, end - time.monotonic()))
            except queue.Empty:
                return None
            if line is None:
                return None
            got.append(line)
            self.seen.append(line)
            if re.search(what, line):
                return got

    def close(self):
        try:
            self.send("quit")
        except (BrokenPipeError, OSError):
            pass
        try:
            return self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return None


def dialogue_test(args, errors):
    """H's two fronts around a fake inner engine (no search): the handshake
    and its name, pinned options, the inner greeting muted and answered
    with a bot's, the inner code worded and typed after the move, the
    greeting, the partner's answers ignored, a sit obeyed on the clock, a
    need passed on, the log's records; then human-partner-stats.py reads
    the log."""
    import tempfile
    phrases = load_phrases(args.phrases)
    meaning_of = {p: m for m, ps in phrases.items() for p in ps}

    def check(ok, what):
        if not ok:
            errors.append(f"dialogue: {what}")
        return ok

    def said(lines, prefix):
        return [meaning_of.get(l[len(prefix):], "?") for l in lines if l.startswith(prefix)]

    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "h.jsonl")
        # CECP, as xboard's zippy mode talks to it on FICS.
        d = Dialogue(args, ["--cecp", "--inner-depth", "1"], log)
        d.send("xboard", "protover 2")
        got = d.expect(r"^feature done=1") or []
        check(any('myname="H (Fake)"' in l for l in got), f"CECP features: {got}")
        d.send("option Skill Level=3", "ping 5")
        got = d.expect(r"^pong 5") or []
        check(got == ["pong 5"], f"a pinned option reached the inner engine: {got}")
        d.send("new", "variant bughouse")
        check(d.expect(r"^# got sd 1$"), "no `sd 1` after `new` (--inner-depth)")
        d.send("partner BugA")
        got = d.expect(r"^# got ptell ") or []
        check(got and "i am rukav" in got[-1].lower(),
              f"the inner engine was not greeted as by a bot: {got}")
        d.send("time 6000", "otim 5000", "usermove e2e4")
        got = (d.expect(r"^move a7a6$") or []) + (d.expect(r"^tellics ptell ", 3) or [])
        got += d.expect(r"^tellics ptell ", 3) or []
        check(said(got, "tellics ptell ") == ["greet", "need n 2"],
              f"CECP: not the greeting then the worded ++n after the move: {got}")
        d.send("ptell Hello! I am Sjeng and hope you enjoy playing with me.",
               "ptell Ok, Knight is VERY good", "ptell sit plz", "ptell im dead", "ping 6")
        got = d.expect(r"^pong 6$") or []
        check([l for l in got if l.startswith("# got")] == ["# got ptell sit", "# got ptell dead"],
              f"CECP: partner tells passed on: {got}")
        d.send("result 1-0 {test}", "new")
        check(d.close() == 0, "CECP: H did not quit")
        check(not [l for l in d.seen if l.startswith("tellics ptell") and
                   (l.endswith("++n") or "I am Rukav" in l)],
              f"CECP: the inner engine's own talk reached the GUI: {d.seen}")
        recs = [json.loads(l) for l in open(log, encoding="utf-8")]
        ev = [r["event"] for r in recs]
        go = [r for r in recs if r["event"] == "go"]
        check(go and 59000 < go[0]["own_ms"] <= 60000 and go[0]["opp_ms"] == 50000,
              f"CECP: clocks of the search from time/otim: {go}")
        heard = [(a["reading"], a["action"], a["sent"]) for r in recs if r["event"] == "heard"
                 for a in r["actions"]]
        check(heard == [("sit", "obeyed", "sit"), ("dead", "obeyed", "dead")],
              f"CECP: heard {heard}")
        for e, n in (("muted", 1), ("answer", 2), ("said", 2), ("sat", 1), ("move", 1),
                     ("result", 1), ("newgame", 2), ("partner", 1), ("pinned", 1)):
            check(ev.count(e) == n, f"CECP: {ev.count(e)} '{e}' records, not {n}: {ev}")
        # UCI, as rukav arena talks to it.
        d = Dialogue(args, ["--name", "H"], log)
        d.send("uci")
        got = d.expect(r"^uciok$") or []
        check("id name H (Fake)" in got, f"UCI: {got}")
        d.send("setoption name Skill Level value 3", "isready")
        got = d.expect(r"^readyok$") or []
        check(got == ["readyok"], f"UCI: a pinned option reached the inner engine: {got}")
        d.send("ucinewgame", "position startpos", "go wtime 60000 btime 50000")
        got = (d.expect(r"^bestmove e2e4$") or []) + (d.expect(r"^info string ptell ", 3) or [])
        got += d.expect(r"^info string ptell ", 3) or []
        check(said(got, "info string ptell ") == ["greet", "need n 2"],
              f"UCI: not the greeting then the worded ++n after the move: {got}")
        d.send("bughouse ptell sit plz", "isready")
        got = d.expect(r"^readyok$") or []
        check([l for l in got if "got" in l] == ["info string got bughouse ptell sit"],
              f"UCI: partner tell passed on: {got}")
        check(d.close() == 0, "UCI: H did not quit")
        stats = subprocess.run(
            [sys.executable, os.path.join(HERE, "human-partner-stats.py"), "--log", log,
             "--rukav", args.rukav], capture_output=True, text=True)
        check(stats.returncode == 0 and "H's tells: 4 sent" in stats.stdout,
              f"human-partner-stats.py on the log: {stats.stdout} {stats.stderr}")
    return errors


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
        before = len(errors)
        dialogue_test(args, errors)
        print(f"dialogues (UCI and CECP, a fake inner engine): {len(errors) - before} problems")
    else:
        print(f"note: {args.rukav} not found; forward codes and dialogues not checked")
    for e in errors:
        print("FAIL:", e)
    print(f"{total} phrases, {len(phrases)} meanings, {len(errors)} problems")
    return 1 if errors else 0


class Human:
    """H's logic, whatever the protocol: what it says (phrases, typing,
    take-backs, the greeting), what it hears and how it obeys, its clock
    reading, its log. The protocol fronts below (`UciHuman`, `CecpHuman`)
    carry the lines between the GUI on stdin/stdout and the inner engine
    on a pipe, and call these methods."""

    # The protocol's lines (set by each front).
    TELL_OUT = None  # H's tell to its GUI, e.g. "info string ptell {}"
    TELL_IN = None  # prefix of the inner engine's tells
    FORWARD_OUT = None  # a code H passes to its inner engine
    DEFAULT_OPTIONS = []

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
        self.over = False  # the game ended (CECP `result`); tells not yet sent are dropped
        self.greeted = False
        self.thinking = False
        self.color = None  # "w"/"b": H's colour, from the side to move at its latest search
        self.stm = "w"
        # H's clock reading: (own ms, opponent's ms, when read, whose clock
        # runs since: "own", "opp" or None); None before H's first search.
        self.clock = None
        self.typing = []  # queued tells: dicts with meaning/phrase/code/game
        self.bans_out = False  # a ban was sent and not lifted since (this game)
        self.partner_bot = False  # the partner greeted as a bot does
        self.quitting = False
        cmd = shlex.split(args.inner) if args.inner else [args.rukav]
        self.inner = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.handshake()
        self.log("start", seed=self.args.seed, pinned=self.pinned, ignore=self.args.ignore,
                 protocol=self.PROTOCOL)

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

    def inner_until(self, done):
        """Reads the inner engine's lines until `done(line)`; returns them."""
        lines = []
        for line in self.inner.stdout:
            line = line.rstrip("\n")
            lines.append(line)
            if done(line):
                return lines
        sys.exit(f"{self.args.name}: the inner engine ended during the handshake")

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

    def inner_tell(self, code):
        """A tell of the inner engine: worded and queued for the typist, or
        muted when it is no code (the inner Rukav's greeting, an answer)."""
        if is_bot_greeting(code) or code.startswith(("ok:", "?")):
            self.log("muted", text=code)
            return
        readings = self.reader.read(code)
        words = [self.phrase_for(r) for r in readings if r not in ("chat", "unknown")]
        if words:
            self.say(readings, ", ".join(words), code)

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
                    if item["game"] != self.game or self.over:
                        break
                    left = item["due"] - time.monotonic()
                    if left <= 0:
                        break
                    self.state.wait(left)
                if self.quitting:
                    return
                self.typing.pop(0)
                if item["game"] != self.game or self.over:
                    why = "game over" if item["game"] == self.game else "new game"
                    self.log("dropped", code=item["code"], phrase=item["phrase"], why=why)
                    continue
                self.out(self.TELL_OUT.format(item["phrase"]))
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

    # --- the game -----------------------------------------------------------

    def new_game(self):
        with self.state:
            self.game += 1
            self.moves = 0
            self.over = False
            self.bans_out = False
            self.thinking = False
            self.clock = None
            self.color = None
            self.stm = "w"
            self.state.notify_all()
        self.log("newgame")

    def game_over(self, result):
        with self.state:
            self.over = True
            self.thinking = False
            self.state.notify_all()
        self.log("result", result=result)

    def set_clock(self, own, opp, running):
        self.clock = (own, opp, time.monotonic(), running)

    def started(self, own=None, opp=None):
        """A search of H's starts (the side to move is H's colour); `own`
        and `opp` are the clocks (ms) it was given, when it was."""
        with self.state:
            self.color = self.stm
            self.thinking = True
            if own is not None and opp is not None:
                self.set_clock(own, opp, "own")
        clocks = self.clocks_now()
        self.log("go", color=self.color, own_ms=clocks and clocks[0],
                 opp_ms=clocks and clocks[1])
        if not self.greeted:
            self.greeted = True
            self.say(["greet"], self.choose(self.phrases["greet"]))

    def moved(self, move):
        """H's move (the inner engine's): its clock stops, the opponent's runs."""
        with self.state:
            clocks = self.clocks_now()
            if clocks is not None:
                self.set_clock(clocks[0], clocks[1], "opp")
            self.thinking = False
            self.moves += 1
            self.stm = other_side(self.stm)
            self.log("move", move=move)

    def clocks_now(self):
        """(own ms, opponent's ms) now, the clock last read run on; None
        before H's first search of the game."""
        if self.clock is None:
            return None
        own, opp, t, running = self.clock
        spent = (time.monotonic() - t) * 1000
        if running == "own":
            own -= spent
        elif running == "opp":
            opp -= spent
        return int(own), int(opp)

    # --- what H hears -------------------------------------------------------

    def answer_kind(self, text):
        """Why a partner's tell asks for nothing a person would act on, or
        None: a bot's greeting (then the partner is a bot), a bot's answer
        to H's tells (as Rukav tells them apart: `ok...`, `sorry...`), the
        "?" of a partner who did not understand H."""
        t = text.strip().lower()
        if is_bot_greeting(t):
            self.partner_bot = True
            return "bot greeting"
        if t.startswith("?"):
            return "question"
        if self.partner_bot and t.startswith(BOT_ANSWERS):
            return "answer"
        return None

    def heard(self, text):
        why = self.answer_kind(text)
        if why:
            self.log("answer", text=text, why=why)
            return
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
                self.send(self.FORWARD_OUT.format(act["sent"]))
        self.log(
            "heard",
            text=text,
            readings=readings,
            actions=actions,
            own_ms=clocks and clocks[0],
            opp_ms=clocks and clocks[1],
        )

    def run(self):
        threading.Thread(target=self.inner_lines, daemon=True).start()
        threading.Thread(target=self.typist, daemon=True).start()
        for line in sys.stdin:
            line = line.strip()
            self.gui_line(line)
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

    def inner_lines(self):
        """The inner engine's output, line by line (`inner_line`)."""
        for line in self.inner.stdout:
            self.inner_line(line.rstrip("\n"))
        # The inner engine is gone: so is H (the GUI sees the end of output).
        self.log("inner-exit")
        sys.stdout.flush()
        os._exit(0 if self.quitting else 1)

    def pinned_option(self, name, value):
        """Is `name` pinned? (Then the GUI's value is dropped and logged.)"""
        if name in self.pinned:
            self.log("pinned", option=name, value=value)
            return True
        return False


class UciHuman(Human):
    """H as a UCI engine with the bughouse extension (`rukav arena`)."""

    PROTOCOL = "uci"
    TELL_OUT = "info string ptell {}"
    TELL_IN = "info string ptell "
    FORWARD_OUT = "bughouse ptell {}"
    DEFAULT_OPTIONS = ["Skill Level=8", "PartnerMessages=true", "UCI_Bughouse=true"]

    def handshake(self):
        """`uci` and the pinned options, before the arena's `uci`."""
        self.id_lines = []
        self.option_lines = []
        self.board_clocks = None  # (white ms, black ms) of `bughouse clocks`
        self.send("uci")
        for line in self.inner_until(lambda l: l == "uciok"):
            if line.startswith("id name "):
                self.id_lines.append(f"id name {self.args.name} ({line[len('id name '):]})")
            elif line.startswith("id "):
                self.id_lines.append(line)
            elif line.startswith("option "):
                self.option_lines.append(line)
        for name, value in self.pinned.items():
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.inner_until(lambda l: l.strip() == "readyok")

    def inner_line(self, line):
        if line.startswith(self.TELL_IN):
            self.inner_tell(line[len(self.TELL_IN):].strip())
            return
        if line.startswith("bestmove"):
            parts = line.split()
            with self.state:
                # Under the lock, so that no tell goes out between the move
                # and its record.
                self.out(line)
                self.moved(parts[1] if len(parts) > 1 else "")
            return
        if line.startswith("info string sitting"):
            self.log("sat", text=line[len("info string sitting"):].strip())
        if line.startswith("id name "):
            line = f"id name {self.args.name} ({line[len('id name '):]})"
        self.out(line)

    def own_opp(self, white, black):
        return (white, black) if self.color == "w" else (black, white)

    def gui_line(self, line):
        words = line.split()
        if not words:
            return
        cmd = words[0]
        if cmd == "uci":
            for l in self.id_lines + self.option_lines + ["uciok"]:
                self.out(l)
            return
        if cmd == "setoption":
            m = re.match(r"setoption name (.*?)(?: value (.*))?$", line)
            if m and self.pinned_option(m[1], m[2]):
                return
        elif cmd == "ucinewgame":
            self.new_game()
            self.board_clocks = None
        elif cmd == "position":
            self.stm = side_to_move(words)
        elif cmd == "bughouse" and len(words) >= 2 and words[1] == "ptell":
            self.heard(line.split(None, 2)[2] if len(words) > 2 else "")
            return
        elif cmd == "bughouse" and len(words) == 6 and words[1] == "clocks":
            self.board_clocks = (int(words[2]), int(words[3]))
            with self.state:
                if self.color is not None:
                    running = "own" if self.thinking else "opp"
                    self.set_clock(*self.own_opp(*self.board_clocks), running)
        elif cmd == "go":
            w = dict(zip(words[1::2], words[2::2]))
            if "wtime" in w and "btime" in w:
                self.board_clocks = (int(w["wtime"]), int(w["btime"]))
            self.color = self.stm
            clocks = self.own_opp(*self.board_clocks) if self.board_clocks else (None, None)
            self.started(*clocks)
        elif cmd == "quit":
            with self.state:
                self.quitting = True
                self.state.notify_all()
        self.send(line)


class CecpHuman(Human):
    """H as a CECP (xboard protocol 2) engine, for an xboard zippy bot on
    FICS: the inner engine's `tellics ptell CODE` lines are worded and sent
    as `tellics ptell PHRASE` (xboard sends them to the server as H's
    account's partner tells); the partner's tells, which zippy passes on as
    `ptell TEXT`, are obeyed and passed to the inner engine as `ptell CODE`;
    everything else goes through unchanged. The clocks for a sit are the
    `time`/`otim` (centiseconds) of H's latest search."""

    PROTOCOL = "cecp"
    TELL_OUT = "tellics ptell {}"
    TELL_IN = "tellics ptell "
    FORWARD_OUT = "ptell {}"
    DEFAULT_OPTIONS = ["Skill Level=8", "PartnerMessages=true"]
    # What H tells the inner Rukav after each `partner NAME`: a bot's
    # greeting, so that it talks to H in codes (a person gets words).
    INNER_GREETING = "I am Rukav (H's inner link): codes please"

    def handshake(self):
        """`xboard`, `protover 2` and the pinned options (`option N=V`)
        before xboard's own `protover`, which H answers with the features
        kept from here (`myname` becomes "NAME (...)")."""
        self.force = False
        self.own_cs = None  # the latest `time`
        self.opp_cs = None  # the latest `otim`
        self.send("xboard")
        self.send("protover 2")
        self.features = []
        for line in self.inner_until(lambda l: re.search(r"\bdone=1\b", l) is not None):
            if line.startswith("feature "):
                line = re.sub(r'myname="([^"]*)"',
                              lambda m: f'myname="{self.args.name} ({m[1]})"', line)
                self.features.append(line)
        for name, value in self.pinned.items():
            self.send(f"option {name}={value}")
        self.after_new()
        self.send("ping 424242")
        self.inner_until(lambda l: l.strip() == "pong 424242")

    def after_new(self):
        if self.args.inner_depth:
            self.send(f"sd {self.args.inner_depth}")

    def inner_line(self, line):
        if line.startswith(self.TELL_IN):
            self.inner_tell(line[len(self.TELL_IN):].strip())
            return
        if line.startswith("move "):
            with self.state:
                self.out(line)
                self.moved(line.split()[1])
            return
        if line.startswith("# sitting"):
            self.log("sat", text=line[len("# sitting"):].strip())
        self.out(line)

    def gui_line(self, line):
        words = line.split()
        if not words:
            return
        cmd = words[0]
        rest = line.split(None, 1)[1] if len(words) > 1 else ""
        if cmd == "xboard":
            return  # sent at the handshake
        if cmd == "protover":
            for l in self.features:
                self.out(l)
            return
        if cmd == "option":
            name, _, value = rest.partition("=")
            if self.pinned_option(name.strip(), value):
                return
        elif cmd == "new":
            self.new_game()
            self.force = False
            self.send(line)
            self.after_new()
            return
        elif cmd == "result":
            self.game_over(rest)
        elif cmd == "force":
            self.force = True
        elif cmd == "playother":
            self.force = False
        elif cmd == "setboard":
            fen = rest.split()
            self.stm = fen[1] if len(fen) > 1 and fen[1] in ("w", "b") else "w"
        elif cmd == "time":
            self.own_cs = int_or_none(rest)
        elif cmd == "otim":
            self.opp_cs = int_or_none(rest)
        elif cmd == "undo":
            self.stm = other_side(self.stm)
        elif cmd in ("usermove", "go"):
            if cmd == "usermove":
                self.stm = other_side(self.stm)
            else:
                self.force = False
            if not self.force:
                self.send(line)
                ms = lambda cs: None if cs is None else cs * 10
                self.started(ms(self.own_cs), ms(self.opp_cs))
                return
        elif cmd == "partner":
            self.send(line)
            if rest:
                self.partner_bot = False
                self.send(f"ptell {self.INNER_GREETING}")
            self.log("partner", partner=rest)
            return
        elif cmd == "ptell":
            self.heard(rest)
            return
        elif cmd == "quit":
            with self.state:
                self.quitting = True
                self.state.notify_all()
        self.send(line)


def other_side(stm):
    """The other side to move ("w"/"b")."""
    return "b" if stm == "w" else "w"


def int_or_none(text):
    """The first word of `text` as an int, or None."""
    try:
        return int(text.split()[0])
    except (ValueError, IndexError):
        return None


def side_to_move(words):
    """The side to move ("w"/"b") of a UCI `position` command."""
    moves = words[words.index("moves") + 1:] if "moves" in words else []
    stm = "w"
    if len(words) > 2 and words[1] == "fen":
        stm = words[3] if len(words) > 3 and words[3] in ("w", "b") else "w"
    if len(moves) % 2:
        stm = other_side(stm)
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
                         "'Skill Level=8', PartnerMessages=true, and UCI_Bughouse=true over UCI)")
    ap.add_argument("--cecp", action="store_true",
                    help="speak CECP (xboard protocol 2) to the GUI and the inner engine, "
                         "for an xboard zippy bot on FICS (default: UCI, for rukav arena)")
    ap.add_argument("--inner-depth", type=int, metavar="N",
                    help="CECP: send `sd N` to the inner engine after every `new` "
                         "(a plumbing test without search time)")
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
    front = CecpHuman if args.cecp else UciHuman
    if args.inner_option is None:
        args.inner_option = list(front.DEFAULT_OPTIONS)
    front(args).run()


if __name__ == "__main__":
    main()
