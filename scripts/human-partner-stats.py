#!/usr/bin/env python3
"""Figures of the talk between Rukav and the scripted partner H
(scripts/human-partner.py), from H's logs and the arena's BPGN.

Usage:
  scripts/human-partner-stats.py --log h.jsonl [--log h2.jsonl] [--bpgn games.bpgn]
      [--rukav target/release/rukav] [--name H]
  scripts/human-partner-stats.py --phrases      how Rukav reads every phrase of
                                                scripts/human-phrases.txt

From the log alone:
  * H's tells understood: every tell H sent (`said` records), read again with
    `rukav ptell` (the reader Rukav applies to `bughouse ptell`) and compared
    with what H meant (the readings of its inner engine's code; `chat` for
    H's greeting and "can't sit"). "exactly" means the same set of readings;
    "partly" the same readings and an `unknown` clause besides; "level" the
    same requests at another level (`need n 3` for `need n 2`); "misread" a
    reading of another meaning (not `unknown`); "not understood" the rest
    (only `unknown`, or part of the meaning missing). The share of tells
    read with the meaning H intended is "exactly" plus "partly".
  * Requests H made (need, ban), and the tells H heard from Rukav with what H
    did: obeyed, ignored (the random share), ignored for the clock (a `sit`
    while H was not ahead); H's sits made (`info string sitting as the partner
    asked` of its inner engine).
With the BPGN (`rukav arena --bpgn`; the games are matched to H's log games by
H's seat, named `NAME (...)`, and H's moves; H's log times are put on the
game's clock by the median offset between H's `bestmove` times and the times
of H's moves in the BPGN, which are the clock time used on the board by both
players up to that move):
  * H's requests fulfilled within 6 of Rukav's moves: a `need P` tell of H's
    counts as fulfilled when one of Rukav's next 6 moves after the tell (on
    Rukav's board) captures a piece of kind P (a promoted piece counts as a
    pawn), i.e. the piece reaches H's pocket. Requests made when fewer than 6
    of Rukav's moves followed before the game ended are counted apart ("cut").
  * Bans broken per 100 held: a ban (`ban P` tell of H's) holds from the tell
    until H's next `trades good` or `cancel` tell or the end of the game; each
    of Rukav's moves while it holds counts as one ban-move held, and each
    capture of a piece of Rukav's of kind P by Rukav's opponent while it holds
    (that piece reaches H's opponent's pocket) as one broken. Given per 100
    ban-moves and per ban.
  * H's losses on time after a sit Rukav asked for: games H's seat lost on
    time after H obeyed a `sit` of Rukav's in that game (and, for comparison,
    H's losses on time in the other games).
  * Rukav's requests H obeyed (H sends `+p`): the same "within 6 moves" test
    with the roles swapped (H's next 6 moves capture a P).
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
REQUEST_MOVES = 6
SEATS = ["WhiteA", "BlackA", "WhiteB", "BlackB"]
OWN_MEANINGS = {"greet": "chat", "nosit": "down"}


def ptell(rukav, text, cache={}):
    if text not in cache:
        out = subprocess.run([rukav, "ptell", text], capture_output=True, text=True, check=True)
        cache[text] = sorted(l.strip() for l in out.stdout.splitlines() if l.strip())
    return cache[text]


def verdict(meant, got):
    """exactly / partly / level / misread / not understood, for one tell."""
    meant = sorted(OWN_MEANINGS.get(m, m) for m in meant)
    if got == meant:
        return "exactly"
    known = [r for r in got if r != "unknown"]
    if known == meant:
        return "partly"

    def strip(rs):
        return sorted({" ".join(r.split()[:2]) if r.split()[0] in ("need", "ban") else r for r in rs})

    if known and strip(known) == strip(meant):
        return "level"
    if any(r not in strip(meant) for r in strip(known)):
        return "misread"
    return "not understood"


def pct(a, b):
    return f"{a}/{b} ({100.0 * a / b:.0f}%)" if b else f"{a}/0"


# --- BPGN ------------------------------------------------------------------

MOVE = re.compile(r"(\d+)([AaBb])\.\s+(\S+)((?:\s+\{gambler [^}]*\})?)\s+\{(-?[\d.]+)\}")


def read_bpgn(path):
    """Games as dicts: tags, moves [(board 0/1, white?, san, clock ms)], comment."""
    text = open(path, encoding="utf-8").read()
    games = []
    for chunk in re.split(r"\n(?=\[Event )", text):
        if not chunk.strip():
            continue
        tags = dict(re.findall(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]', chunk, re.M))
        body = "\n".join(l for l in chunk.splitlines() if not l.startswith("["))
        moves = [
            ("AB".index(m[2].upper()), m[2].isupper(), m[3], round(float(m[5]) * 1000))
            for m in MOVE.finditer(body)
        ]
        comments = re.findall(r"\{([^}]*)\}\s*(?:1-0|0-1|1/2-1/2|\*)\s*$", body.strip())
        games.append({"tags": tags, "moves": moves, "comment": comments[0] if comments else ""})
    return games


def replay(game):
    """Adds to each game its moves as dicts: board, white, uci, time (ms of
    game clock), captured kind (python-chess piece type, promoted ones as
    pawns), by replaying both boards with pieces passed to the partner."""
    import chess
    import chess.variant

    t0, _, inc = game["tags"].get("TimeControl", "0+0").partition("+")
    t0, inc = float(t0) * 1000, float(inc or 0) * 1000
    boards = [chess.variant.CrazyhouseBoard(), chess.variant.CrazyhouseBoard()]
    used = [[0.0, 0.0], [0.0, 0.0]]
    count = [[0, 0], [0, 0]]
    out = []
    for b, white, san, clock in game["moves"]:
        board = boards[b]
        try:
            mv = board.parse_san(san)
        except ValueError as e:
            print(f"note: game {game['tags'].get('Round')}: {san} on board {'AB'[b]}: {e}; "
                  "replay stopped", file=sys.stderr)
            break
        captured = None
        if board.is_capture(mv):
            if board.is_en_passant(mv):
                captured = chess.PAWN
            else:
                promoted = bool(board.promoted & chess.BB_SQUARES[mv.to_square])
                captured = chess.PAWN if promoted else board.piece_type_at(mv.to_square)
        mover = board.turn
        board.push(mv)
        if captured:
            board.pockets[mover].remove(captured)
            boards[1 - b].pockets[not mover].add(captured)
        side = 0 if white else 1
        count[b][side] += 1
        used[b][side] = t0 + count[b][side] * inc - clock
        out.append({"board": b, "white": white, "uci": mv.uci(), "time": sum(used[b]),
                    "captured": captured})
    game["replayed"] = out
    return game


# --- matching log games to BPGN games -----------------------------------------


def split_games(records):
    """{(pid, game): [records]} for games with at least one move."""
    games = defaultdict(list)
    for r in records:
        if r.get("game", 0) > 0:
            games[(r["pid"], r["game"])].append(r)
    return {k: v for k, v in games.items() if any(r["event"] == "move" for r in v)}


def h_seat(game, name):
    for i, s in enumerate(SEATS):
        if game["tags"].get(s, "").startswith(name + " ("):
            return i
    return None


def match(log_games, bpgn, name):
    """[(log key, bpgn game, offset ms)] matched by H's moves."""
    out = []
    used = set()
    for key, recs in sorted(log_games.items(), key=lambda kv: kv[1][0]["t"]):
        moves = [r for r in recs if r["event"] == "move"]
        best = None
        for gi, g in enumerate(bpgn):
            if gi in used:
                continue
            seat = h_seat(g, name)
            if seat is None:
                continue
            b, white = seat // 2, seat % 2 == 0
            hm = [m for m in g["replayed"] if m["board"] == b and m["white"] == white]
            pairs = []
            j = 0
            for m in hm:
                while j < len(moves) and moves[j]["move"] != m["uci"]:
                    j += 1
                if j == len(moves):
                    break
                pairs.append((m["time"], moves[j]["t"] * 1000))
                j += 1
            score = len(pairs) - (len(hm) - len(pairs)) * 2
            if pairs and len(pairs) >= 0.9 * len(hm) and (best is None or score > best[0]):
                best = (score, gi, pairs)
        if best:
            _, gi, pairs = best
            used.add(gi)
            offset = statistics.median(bt - lt for bt, lt in pairs)
            residual = max(abs(bt - lt - offset) for bt, lt in pairs)
            out.append((key, bpgn[gi], offset, residual))
    return out


def bpgn_figures(matched, log_games, name):
    f = Counter()
    for key, g, offset, _ in matched:
        recs = log_games[key]
        seat = h_seat(g, name)
        hb, hwhite = seat // 2, seat % 2 == 0
        rb, rwhite = 1 - hb, not hwhite  # the partner: other board, other colour
        moves = g["replayed"]
        gt = lambda r: r["t"] * 1000 + offset
        rukav_moves = [m for m in moves if m["board"] == rb and m["white"] == rwhite]
        h_moves = [m for m in moves if m["board"] == hb and m["white"] == hwhite]
        opp_moves = [m for m in moves if m["board"] == rb and m["white"] != rwhite]
        said = [r for r in recs if r["event"] == "said" and r.get("code")]
        end = moves[-1]["time"] if moves else 0
        # H's needs.
        for r in said:
            for m in r["meaning"]:
                w = m.split()
                if w[0] != "need":
                    continue
                kind = "pnbrq".index(w[1]) + 1
                nxt = [x for x in rukav_moves if x["time"] > gt(r)][:REQUEST_MOVES]
                f["h_needs"] += 1
                if any(x["captured"] == kind for x in nxt):
                    f["h_needs_fulfilled"] += 1
                elif len(nxt) < REQUEST_MOVES:
                    f["h_needs_cut"] += 1
        # H's bans.
        for i, r in enumerate(said):
            for m in r["meaning"]:
                w = m.split()
                if w[0] != "ban":
                    continue
                kind = "pnbrq".index(w[1]) + 1
                until = end + 1
                for later in said[i + 1:]:
                    if {"trades good", "cancel"} & set(later["meaning"]):
                        until = gt(later)
                        break
                f["h_bans"] += 1
                f["ban_moves"] += sum(1 for x in rukav_moves if gt(r) < x["time"] <= until)
                f["bans_broken"] += sum(
                    1 for x in opp_moves if gt(r) < x["time"] <= until and x["captured"] == kind
                )
        # Rukav's needs that H obeyed.
        for r in recs:
            if r["event"] != "heard":
                continue
            for a in r["actions"]:
                if a["reading"].startswith("need") and a["action"] == "obeyed":
                    kind = "pnbrq".index(a["reading"].split()[1]) + 1
                    nxt = [x for x in h_moves if x["time"] > gt(r)][:REQUEST_MOVES]
                    f["r_needs_obeyed"] += 1
                    if any(x["captured"] == kind for x in nxt):
                        f["r_needs_fulfilled"] += 1
        sat = any(
            a["reading"] == "sit" and a["action"] == "obeyed"
            for r in recs if r["event"] == "heard" for a in r["actions"]
        )
        flagged = g["comment"].startswith(f"{SEATS[seat]} lost on time")
        f["games"] += 1
        f["games_sat"] += sat
        f["flag_after_sit"] += sat and flagged
        f["flag_other"] += (not sat) and flagged
    return f


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--log", action="append", default=[], help="H's log (repeatable)")
    ap.add_argument("--bpgn", help="the arena's BPGN of the same games")
    ap.add_argument("--rukav", default=os.path.join(ROOT, "target", "release", "rukav"))
    ap.add_argument("--name", default="H", help="H's --name (its seat in the BPGN is 'NAME (...)')")
    ap.add_argument("--phrases", action="store_true",
                    help="print how Rukav reads every phrase of scripts/human-phrases.txt")
    args = ap.parse_args()

    if args.phrases:
        tally = Counter()
        for line in open(os.path.join(HERE, "human-phrases.txt"), encoding="utf-8"):
            if line.strip() and not line.startswith("#"):
                meaning, phrase = (s.strip() for s in line.split("|", 1))
                got = ptell(args.rukav, phrase)
                v = verdict([meaning], got)
                tally[v] += 1
                print(f"{v:15} {meaning:12} | {phrase:35} -> {'; '.join(got)}")
        n = sum(tally.values())
        print("; ".join(f"{k} {pct(v, n)}" for k, v in tally.most_common()))
        return

    records = []
    for path in args.log:
        with open(path, encoding="utf-8") as f:
            records += [json.loads(l) for l in f if l.strip()]
    records = [r for r in records if r.get("name", "H") == args.name]
    said = [r for r in records if r["event"] == "said"]
    tally = Counter()
    req = Counter()
    delays = []
    for r in said:
        got = ptell(args.rukav, r["phrase"])
        v = verdict(r["meaning"], got)
        tally[v] += 1
        if any(m.split()[0] in ("need", "ban") for m in r["meaning"]):
            req[v] += 1
        delays.append(r["delay_s"])
    n = len(said)
    print(f"H's tells: {n} sent, {sum(1 for r in records if r['event'] == 'dropped')} "
          f"dropped (taken back or game over); delay {min(delays, default=0):.1f} .. "
          f"{max(delays, default=0):.1f} s, median {statistics.median(delays) if delays else 0:.1f} s")
    print("H's tells read by Rukav: " + "; ".join(
        f"{k} {pct(tally[k], n)}" for k in ("exactly", "partly", "level", "not understood", "misread")))
    meanings = Counter(m.split()[0] for r in said if r.get("code") for m in r["meaning"])
    print(f"H's requests: need {meanings['need']}, ban {meanings['ban']}; read exactly "
          f"{pct(req['exactly'], sum(req.values()))}, partly {req['partly']}, "
          f"at another level {req['level']}, misread {req['misread']}")
    heard = [r for r in records if r["event"] == "heard"]
    acts = Counter()
    for r in heard:
        for a in r["actions"]:
            acts[(a["reading"].split()[0], a["action"])] += 1
    kinds = sorted({k for k, _ in acts})
    print(f"Tells H heard: {len(heard)}; " + "; ".join(
        f"{k}: " + ", ".join(f"{act} {c}" for (kk, act), c in sorted(acts.items()) if kk == k)
        for k in kinds))
    sits = sum(1 for r in records if r["event"] == "sat" and r["text"].startswith("as the partner asked"))
    print(f"H's inner engine held a move as the partner asked: {sits} times")

    if args.bpgn:
        bpgn = [replay(g) for g in read_bpgn(args.bpgn)]
        log_games = split_games(records)
        matched = match(log_games, bpgn, args.name)
        f = bpgn_figures(matched, log_games, args.name)
        worst = max((m[3] for m in matched), default=0)
        print(f"BPGN: {len(bpgn)} games, {len(matched)} matched to {len(log_games)} games of H's "
              f"log (H's move times off the game clock by at most {worst:.0f} ms)")
        print(f"H's needs fulfilled within {REQUEST_MOVES} of Rukav's moves: "
              f"{pct(f['h_needs_fulfilled'], f['h_needs'])} ({f['h_needs_cut']} cut short by the end)")
        print(f"H's bans: {f['h_bans']}, held {f['ban_moves']} ban-moves of Rukav's, broken "
              f"{f['bans_broken']}: {100.0 * f['bans_broken'] / max(f['ban_moves'], 1):.1f} per 100 "
              f"ban-moves, {100.0 * f['bans_broken'] / max(f['h_bans'], 1):.1f} per 100 bans")
        print(f"Rukav's needs H obeyed, fulfilled within {REQUEST_MOVES} of H's moves: "
              f"{pct(f['r_needs_fulfilled'], f['r_needs_obeyed'])}")
        print(f"H lost on time in {pct(f['flag_after_sit'], f['games_sat'])} games after obeying "
              f"a sit of Rukav's; in {pct(f['flag_other'], f['games'] - f['games_sat'])} other games")


if __name__ == "__main__":
    main()
