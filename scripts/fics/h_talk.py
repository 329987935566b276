"""The figures of a FICS run with H (scripts/human-partner.py --cecp) on a
seat: how H's partner took H's tells, losses on time after sits, the score of
H's team. Called by analyze.py (which reads the xboard logs) when a seat's
engine is `human`; writes TAG/h-tells.md (one line per tell of H's) and
returns the lines for table.md.

A tell of H's is what H's log (TAG/h-BOT.jsonl) records as `said`: its
phrase and the meaning H gave it (the readings of the inner Rukav's code,
`greet` for the greeting, `nosit` (= `down`) for "can't sit"). It is found
again, by its text and in order, among the `ptell TEXT` lines that the
partner's xboard passed to the partner's engine (only the partner's tells
are passed on, so they are H's). Then it is judged only on what the
partner's engine wrote back, in the partner's xboard log, after that tell
and before the next one it received:

* Rukav answers a person (H greets as one) with an acknowledgement in words
  when a tell changes what it was asked (`ok: I'll try to get you a N`;
  src/engine/brain/talk.rs, acknowledge: the patterns below are its
  sentences), with `? I did not understand ...` (at most once between two of
  its moves) and a `# partner tell not (fully) understood` comment line for
  a tell it could not read (whole or in part); for a sit it also writes `#
  sitting as the partner asked` when it holds its next move.
* Sjeng answers every tell it reads (`Ok, Knight is VERY good`, `Ok, I sit
  next move. Tell me when to go.`; partner.c, HandlePtell), says `Sorry, but
  I don't understand that command.` to the rest, and says nothing to a tell
  that begins with `ok`, `sorry` or `dead`. Its `Ok, reverting to STANDARD
  piece values!` (to `x`, `=`, "never mind") lifts every request: it counts
  for `x`/alive, `cancel` and `trades good`.

Verdicts: "understood" (an answer with H's meaning; for need/ban the same
piece, at its level or another, told apart in the table), "understood
(behaviour)" (Rukav: no answer, but a sit of H's followed by `# sitting as
the partner asked` before Rukav's next move), "partly" (some of a tell's
meanings understood), "misread" (an answer with another meaning only),
"not understood" (only a not-understood answer or comment), "no answer"
(nothing: for Rukav a tell that changed nothing it was asked already, e.g.
a need repeated, or a greeting; for Sjeng an `ok...` tell), "not delivered"
(not found among the partner's tells). The share understood is understood +
understood (behaviour) + partly over the tells other than H's greetings.
"""
import collections
import json
import os
import re

PIECES = {"pawn": "p", "knight": "n", "bishop": "b", "rook": "r", "queen": "q",
          "diagonal": "d", "heavy": "h"}
OWN = {"greet": "chat", "nosit": "down"}

# Rukav's acknowledgements (src/engine/brain/talk.rs, acknowledge): regex ->
# reading (`{p}`: the piece letter of group 1; level `*`: 1 or 2).
RUKAV_ACKS = [
    (r"sitting until you say go", "sit"),
    (r"(?:^ok: |; )moving(?:;|$)", "go"),
    (r"you're up on time", "up"),
    (r"you're down on time", "down"),
    (r"I'll take a ([PNBRQ]) when it is an even trade", "need {p} 1"),
    (r"I'll try to get you a ([PNBRQ])", "need {p} 2"),
    (r"([PNBRQ]) mates: I'll give almost anything", "need {p} 3"),
    (r"([PNBRQ]) mates you: I'll keep mine", "ban {p} 3"),
    (r"won't give ([PNBRQ]) until you say trades", "ban {p} *"),
    (r"trading freely again", "trades good"),
    (r"no trades until you say trades", "trades bad"),
    (r"requests cleared", "cancel"),
    (r"you're dead:", "dead"),
    (r"playing normally again", "alive"),
    (r"playing fast; say slow", "fast"),
    (r"normal speed again", "slow"),
    (r"not waiting for pieces from you", "unavailable"),
]

# Sjeng's answers (partner.c, HandlePtell): regex -> readings.
SJENG_ACKS = [
    (r"^Ok, I sit next move", ["sit"]),
    (r"^Ok, I'm moving", ["go"]),
    (r"^Ok, I'm going FAST", ["fast"]),
    (r"^Ok, moving normally", ["slow"]),
    (r"^Ok, trading is GOOD", ["trades good"]),
    (r"^Ok, trading is BAD", ["trades bad"]),
    (r"^Ok, reverting to STANDARD piece values", ["alive", "cancel", "trades good"]),
    (r"^Ok, (\w+) mates you", ["ban {p} 3"]),
    (r"^Ok, (\w+) is VERY bad", ["ban {p} 2"]),
    (r"^Ok, (\w+) is bad", ["ban {p} 1"]),
    (r"^Ok, (\w+) mates", ["need {p} 3"]),
    (r"^Ok, (\w+) is VERY good", ["need {p} 2"]),
    (r"^Ok, (\w+) is good", ["need {p} 1"]),
    (r"^Greetings\.", ["chat"]),
    (r"^Commands that I understand", ["help"]),
]
SJENG_NOT = (r"^Sorry, but I don't understand", r"^Sorry, but I'm not playing",
             r"^Ok, \w+ is\.\.\.uh\.\.\.what did you say")


def rukav_answer(text):
    """(readings, not understood) of one of Rukav's tells, or None when it
    is no answer (a request of its own)."""
    if text.startswith("?"):
        return [], True
    if not text.startswith("ok: "):
        return None
    out = []
    for pattern, reading in RUKAV_ACKS:
        for m in re.finditer(pattern, text):
            out.append(reading.format(p=m.group(1).lower()) if m.groups() else reading)
    return out, False


def sjeng_answer(text):
    """(readings, not understood) of one of Sjeng's tells, or None when it
    is no answer."""
    for pattern in SJENG_NOT:
        if re.match(pattern, text):
            return [], True
    for pattern, readings in SJENG_ACKS:
        m = re.match(pattern, text)
        if m:
            p = PIECES.get(m.group(1).lower(), m.group(1).lower()) if m.groups() else ""
            return [r.format(p=p) for r in readings], False
    return None


ANSWER = {"rukav": rukav_answer, "sjeng": sjeng_answer}


def same(meant, got, any_level):
    """Does the answer's reading `got` stand for `meant`?"""
    mw, gw = meant.split(), got.split()
    if mw[0] in ("need", "ban") and gw[0] == mw[0]:
        return gw[1] == mw[1] and (any_level or gw[2] in (mw[2], "*") and
                                   not (gw[2] == "*" and mw[2] == "3"))
    return meant == got


def judge(meaning, entry, engine):
    """(verdict, how it was judged, answers) of one tell of H's."""
    if entry is None:
        return "not delivered", "not among the partner's tells", []
    parse = ANSWER.get(engine, lambda t: None)
    answers = [(t, parse(t)) for t in entry["after"]]
    answers = [(t, a) for t, a in answers if a is not None]
    got = [r for _, (rs, _) in answers for r in rs]
    not_understood = entry["not_understood"] or any(nu for _, (_, nu) in answers)
    meant = [OWN.get(m, m) for m in meaning]
    hit = [m for m in meant if any(same(m, g, False) for g in got)]
    near = [m for m in meant if m not in hit and any(same(m, g, True) for g in got)]
    texts = [t for t, _ in answers]
    if hit or near:
        level = " (another level)" if near else ""
        if len(hit) + len(near) < len(meant):
            return "partly", "answer" + level, texts
        return "understood", "answer" + level, texts
    if "sit" in meant and entry["sat"]:
        return "understood (behaviour)", "# sitting as the partner asked", texts
    if got:
        return "misread", "answer of another meaning", texts
    if not_understood:
        how = "answer" if answers else "# partner tell not (fully) understood"
        return "not understood", how, texts
    return "no answer", "", texts


def load_log(path):
    if not os.path.exists(path):
        return []
    return [json.loads(x) for x in open(path, encoding="utf-8") if x.strip()]


def align(said, heard):
    """For each `said` record, the partner's heard entry with its text
    (whitespace folded), in order; None when it is not found among the
    next 8."""
    norm = lambda t: " ".join(t.split())
    out = []
    j = 0
    for r in said:
        found = None
        for k in range(j, min(j + 8, len(heard))):
            if norm(heard[k][1]["text"]) == norm(r["phrase"]):
                found = heard[k]
                j = k + 1
                break
        out.append(found)
    return out


def log_games(records):
    """{log game: [records]} of H's log, for games where H moved."""
    games = collections.defaultdict(list)
    for r in records:
        games[r.get("game", 0)].append(r)
    return {g: rs for g, rs in games.items() if any(r["event"] == "move" for r in rs)}


def match_games(hlog, bot_games):
    """{log game: index of the run's game} by H's moves (`move` records
    against the moves its xboard passed on, `<first : move X`)."""
    out = {}
    used = set()
    for g, rs in sorted(hlog.items()):
        moves = [r["move"] for r in rs if r["event"] == "move"]
        for k, bg in enumerate(bot_games):
            if k not in used and bg["engine_moves"] == moves:
                out[g] = k
                used.add(k)
                break
    return out


def report(D, records, per_bot, engines, team, winners, flag_losers):
    """The H section of table.md (lines) for every `human` seat; writes
    D/h-tells.md."""
    lines = []
    detail = ["# H's tells and how the partner took them", "",
              "(scripts/fics/h_talk.py: how each verdict is judged)", ""]
    for h in [b for b in per_bot if engines[b] == "human"]:
        partner = [b for b in per_bot if b != h and team[b] == team[h]][0]
        pe = engines[partner]
        records_h = load_log(os.path.join(D, f"h-{h}.jsonl"))
        said = [r for r in records_h if r["event"] == "said"]
        heard = [(k, e) for k, g in enumerate(per_bot[partner]) for e in g["heard_log"]]
        found = align(said, heard)
        lines += ["", f"## H on {h}, partner {partner} ({pe})", ""]
        if not records_h:
            lines.append(f"No log of H's (h-{h}.jsonl) in {D}.")
            continue
        tally = collections.Counter()
        by_meaning = collections.defaultdict(collections.Counter)
        levels = 0
        detail += [f"## H on {h}, partner {partner} ({pe})", "",
                   "| game | H's phrase | meaning | the partner's answers | verdict | judged by |",
                   "|---|---|---|---|---|---|"]
        for r, f in zip(said, found):
            entry = f[1] if f else None
            verdict, how, answers = judge(r["meaning"], entry, pe)
            kind = ("greet" if r["meaning"] == ["greet"] else
                    r["meaning"][0].split()[0] if r["meaning"] else "?")
            if kind != "greet":
                tally[verdict] += 1
                levels += "another level" in how
            by_meaning[kind][verdict] += 1
            game = f[0] + 1 if f else "?"
            detail.append(f"| {game} | {r['phrase']} | {', '.join(r['meaning'])} | "
                          f"{' / '.join(answers)} | {verdict} | {how} |")
        detail.append("")
        n = sum(tally.values())
        ok = tally["understood"] + tally["understood (behaviour)"] + tally["partly"]
        lines.append(
            f"H's tells (greetings apart): {n}; understood by {pe} on evidence in its log "
            f"{ok}/{n} = {100 * ok / max(n, 1):.0f}% (answer {tally['understood']}, "
            f"{levels} of them at another level; behaviour {tally['understood (behaviour)']}; "
            f"partly {tally['partly']}); misread {tally['misread']}, not understood "
            f"{tally['not understood']}, no answer {tally['no answer']}, not delivered "
            f"{tally['not delivered']}")
        lines.append("By kind: " + "; ".join(
            f"{k} " + ", ".join(f"{v} {c}" for v, c in sorted(cs.items()))
            for k, cs in sorted(by_meaning.items())))
        # Sits: the partner's for H, H's for the partner.
        games = log_games(records_h)
        gmap = match_games(games, per_bot[h])
        partner_sat = set()
        for r, f in zip(said, found):
            if f and "sit" in r["meaning"]:
                verdict, _, _ = judge(r["meaning"], f[1], pe)
                if verdict.startswith("understood") or verdict == "partly":
                    partner_sat.add(f[0])
        h_sat = {gmap[g] for g, rs in games.items() if g in gmap and any(
            a["reading"] == "sit" and a["action"] == "obeyed"
            for x in rs if x["event"] == "heard" for a in x["actions"])}
        n_games = len(records)
        pl = [k for k in range(n_games) if flag_losers[k] == partner]
        hl = [k for k in range(n_games) if flag_losers[k] == h]
        lines.append(
            f"{partner} ({pe}) lost on time in {len([k for k in pl if k in partner_sat])}/"
            f"{len(partner_sat)} games in which it took a sit of H's (judged as above), in "
            f"{len([k for k in pl if k not in partner_sat])}/{n_games - len(partner_sat)} other games")
        lines.append(
            f"H lost on time in {len([k for k in hl if k in h_sat])}/{len(h_sat)} games in which "
            f"it obeyed a sit of {partner}'s, in {len([k for k in hl if k not in h_sat])}/"
            f"{n_games - len(h_sat)} other games ({len(gmap)}/{n_games} games matched to H's log)")
        heard_h = [x for x in records_h if x["event"] == "heard"]
        acts = collections.Counter((a["reading"].split()[0], a["action"])
                                   for x in heard_h for a in x["actions"])
        lines.append(
            f"Tells H heard from {partner}: {len(heard_h)} read, "
            f"{sum(1 for x in records_h if x['event'] == 'answer')} answers/greetings ignored; "
            + "; ".join(f"{k} {a} {c}" for (k, a), c in sorted(acts.items())))
        t = team[h]
        wins = sum(1 for w in winners if w == t)
        draws = sum(1 for w in winners if w == "draw")
        pts = wins + 0.5 * draws
        lines.append(f"H's team ({partner} {pe} + {h} H): {pts}/{n_games} = "
                     f"{100 * pts / max(n_games, 1):.1f}% ({wins} wins, {draws} draws)")
        lines.append(f"(each tell: {os.path.join(D, 'h-tells.md')})")
    open(os.path.join(D, "h-tells.md"), "w").write("\n".join(detail) + "\n")
    return lines
