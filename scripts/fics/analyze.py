#!/usr/bin/env python3
"""The per-game table of one run of the FICS bughouse harness.

usage: analyze.py TAG   (reads $FICS_E2E/logs/games-TAG.jsonl and $FICS_E2E/logs/TAG/xb-Bug?.debug)
Writes $FICS_E2E/logs/TAG/table.md and prints it: per game and board the engines, the server's
result, plies, drops by colour; per game the illegal moves (the server's "Illegal move" to a bot),
engine errors, hangs (the referee asked for a flag on a board that stood still), losses on time
with the loser's clock when its last sit began (and whether it flagged during that sit), the
tells each engine sent and received. Then the totals a run is judged by.
"""
import collections
import json
import os
import re
import sys

tag = sys.argv[1]
R = os.environ['FICS_E2E']
L = os.path.join(R, 'logs')
D = os.path.join(L, tag)
BOTS = ['BugA', 'BugB', 'BugC', 'BugD']
TEAM = {'BugA': 'AB', 'BugB': 'AB', 'BugC': 'CD', 'BugD': 'CD'}


def engine_of(bot):
    for path in (os.path.join(D, f'{bot}.engine'), os.path.join(R, 'zippy', f'{bot}.engine')):
        if os.path.exists(path):
            return open(path).read().strip()
    return '?'


def bot_games(bot):
    """One dict per game the bot's xboard saw created, in order."""
    path = os.path.join(D, f'xb-{bot}.debug')
    games = []
    if not os.path.exists(path):
        return games
    cur = None
    clock_cs = None
    last_heard, unmoved = None, []
    for ln in open(path, errors='replace'):
        ln = ln.rstrip('\n')
        if ln.startswith('<ICS: '):
            text = ln[6:].replace('\\012', '\n').replace('\\015', '')
            for m in re.finditer(r'\{Game \d+ \((\w+) vs\. (\w+)\) Creating ', text):
                if bot in m.groups():
                    cur = dict(illegal=[], errors=[], sits=[], moves=0, told=[], heard=[], holdings=0,
                               waits=0, last_move_clock_cs=None, engine_moves=[], heard_log=[])
                    last_heard = None  # the latest tell passed to the engine
                    unmoved = []  # tells passed on since the engine's latest move
                    games.append(cur)
            if cur is not None:
                cur['illegal'] += re.findall(r'^Illegal move.*$', text, re.M)
            continue
        if cur is None:
            continue
        m = re.match(r'^(\d+) ([<>])first : (.*)$', ln)
        if not m:
            continue
        t_ms, way, msg = m.groups()
        if way == '>':
            if msg.startswith('time '):
                clock_cs = int(msg.split()[1])
            elif msg.startswith('holding'):
                cur['holdings'] += 1
            elif msg.startswith('ptell '):
                cur['heard'].append(msg[6:])
                # What the engine writes back after it, until the next tell (h_talk.py).
                last_heard = dict(text=msg[6:], t_ms=int(t_ms), after=[], sat=False,
                                  not_understood=False)
                cur['heard_log'].append(last_heard)
                unmoved.append(last_heard)
            continue
        if msg.startswith('move '):
            cur['moves'] += 1
            cur['engine_moves'].append(msg.split()[1] if len(msg.split()) > 1 else '')
            unmoved = []
            cur['last_move_clock_cs'] = clock_cs
            cur['sitting'] = None
        elif msg.startswith('# sitting'):
            s = re.match(r'# sitting (.*) at most (\d+) ms', msg)
            sit = dict(reason=s.group(1) if s else msg, budget_ms=int(s.group(2)) if s else None,
                       clock_ms=None if clock_cs is None else clock_cs * 10, after_move=cur['moves'])
            cur['sits'].append(sit)
            cur['sitting'] = sit
            if sit['reason'] == 'as the partner asked':
                for h in unmoved:
                    h['sat'] = True
        elif msg.startswith('# no legal move'):
            cur['waits'] += 1
        elif msg.startswith('tellics ptell '):
            cur['told'].append(msg[len('tellics ptell '):])
            if last_heard is not None:
                last_heard['after'].append(msg[len('tellics ptell '):])
        elif msg.startswith('# partner tell not (fully) understood') and last_heard is not None:
            last_heard['not_understood'] = True
        elif msg.startswith('Error') or msg.startswith('Illegal move'):
            cur['errors'].append(msg)
    return games


records = [json.loads(x) for x in open(os.path.join(L, f'games-{tag}.jsonl'))]
per_bot = {b: bot_games(b) for b in BOTS}
engines = {b: engine_of(b) for b in BOTS}
out = []
p = out.append
p(f'# FICS bughouse run `{tag}`: {len(records)} games')
p('')
p('Seats: ' + ', '.join(f'{b} {engines[b]}' for b in BOTS) + ' (teams BugA+BugB, BugC+BugD)')
p('')
p('| game | tc | board | white | black | result | plies | drops W/B | illegal | hangs | loss on time: the last sit (clock when it began, budget) | tells sent / heard |')
p('|---|---|---|---|---|---|---|---|---|---|---|---|')
totals = collections.Counter()
team_points = collections.Counter()
engine_drops = collections.defaultdict(lambda: collections.Counter())
time_losses = []
winners = []  # per game: 'AB', 'CD', 'draw' or None
flag_losers = []  # per game: the player who lost on time on the board where the flag fell, or None


def flagged_board(boards):
    """The board whose player ran out of time. The server ends both boards
    when one player flags and writes "X forfeits on time" on both; the flag
    fell where the loser's clock at the last move (seconds, style 12) ran
    out first after that move: while the loser was to move, or, when it had
    moved last, with nothing left (0 s) on its clock."""
    best = None
    for bd in boards:
        m = re.search(r'(\w+) forfeits on time', bd.get('reason') or '')
        clocks = bd.get('clocks_ms')
        if not m or not clocks or bd.get('last_move_t') is None:
            continue
        loser_is_white = m.group(1) == bd['white']
        loser_clock = clocks[0] if loser_is_white else clocks[1]
        # The side to move after the last move (style 12); older records have only the plies,
        # which miss the moves made before the referee observed the board.
        white_to_move = bd['to_move'] == 'W' if 'to_move' in bd else bd.get('plies', 0) % 2 == 0
        if white_to_move != loser_is_white and loser_clock > 0:
            continue
        flag_at = bd['last_move_t'] + loser_clock
        if best is None or flag_at < best[0]:
            best = (flag_at, bd['game'])
    return None if best is None else best[1]


for k, rec in enumerate(records):
    info = {b: (per_bot[b][k] if k < len(per_bot[b]) else None) for b in BOTS}
    illegal = sum(len(i['illegal']) + len(i['errors']) for i in info.values() if i)
    winner_team = None
    flag_board = flagged_board(rec['boards'])
    flag_loser = None
    for bd in rec['boards']:
        reason = bd.get('reason') or ''
        res = bd.get('result')
        hangs = bd.get('flag_asks', 0)
        totals['hangs'] += hangs
        if res in ('1-0', '0-1') and winner_team is None:
            winner_team = TEAM[bd['white'] if res == '1-0' else bd['black']]
        elif res == '1/2-1/2' and winner_team is None:
            winner_team = 'draw'
        losses = ''
        m = re.search(r'(\w+) forfeits on time', reason)
        if m and bd['game'] == flag_board:
            flag_loser = m.group(1)
        if m and bd['game'] != flag_board:
            losses = "the partner's flag"
        elif m and m.group(1) in info and info[m.group(1)]:
            loser = m.group(1)
            i = info[loser]
            last = i['sits'][-1] if i['sits'] else None
            during = i.get('sitting') is not None
            after = i['moves'] - last['after_move'] - (0 if during else 1) if last else 0
            losses = (f'{loser} ({engines[loser]}): ' +
                      (f'last sit {last["reason"]} from {last["clock_ms"] / 1000:.1f} s for {last["budget_ms"]} ms, '
                       + ('flagged during it' if during else f'{after} moves after it') if last else 'no sit'))
            time_losses.append(dict(game=rec['n'], loser=loser, engine=engines[loser], during_sit=during,
                                    last_sit=last, moves_after=after))
        drops = bd.get('drops', {})
        engine_drops[engines[bd['white']]]['W'] += drops.get('W', 0)
        engine_drops[engines[bd['black']]]['B'] += drops.get('B', 0)
        tells = '; '.join(f'{b} {len(info[b]["told"])}/{len(info[b]["heard"])}'
                          for b in (bd['white'], bd['black']) if info.get(b))
        p(f'| {rec["n"]} | {rec["tc"]} | {bd["game"]} | {bd["white"]} ({engines[bd["white"]]}) | '
          f'{bd["black"]} ({engines[bd["black"]]}) | {res} {{{reason}}} | {bd["plies"]} | '
          f'{drops.get("W", 0)}/{drops.get("B", 0)} | {illegal} | {hangs} | {losses} | {tells} |')
    totals['illegal'] += illegal
    totals['timed_out'] += bool(rec.get('timed_out'))
    team_points[winner_team] += 1
    winners.append(winner_team)
    flag_losers.append(flag_loser)
p('')
names = {'AB': f'BugA+BugB ({engines["BugA"]}+{engines["BugB"]})',
         'CD': f'BugC+BugD ({engines["BugC"]}+{engines["BugD"]})'}
n = len(records)
ab = team_points['AB'] + 0.5 * team_points['draw']
p(f'Teams: {names["AB"]} {team_points["AB"]} wins, {names["CD"]} {team_points["CD"]} wins, '
  f'{team_points["draw"]} draws, {team_points[None]} without a result; '
  f'BugA+BugB scored {ab}/{n} = {100 * ab / max(n, 1):.1f}%')
p(f'Illegal moves and engine errors: {totals["illegal"]}; hangs: {totals["hangs"]}; '
  f'games given up by the referee: {totals["timed_out"]}')
p('Drops by engine and colour: ' + '; '.join(f'{e} as White {c["W"]}, as Black {c["B"]}'
                                             for e, c in sorted(engine_drops.items())))
p(f'Losses on time: {len(time_losses)}; ' + '; '.join(
    f'game {t["game"]} {t["loser"]} ({t["engine"]}): '
    + (f'last sit from {t["last_sit"]["clock_ms"] / 1000:.1f} s, '
       + ('flagged during it' if t['during_sit'] else f'{t["moves_after"]} moves after it')
       if t['last_sit'] else 'no sit') for t in time_losses))
sent = collections.Counter()
heard = collections.Counter()
for b in BOTS:
    for g in per_bot[b]:
        sent[engines[b]] += len(g['told'])
        heard[engines[b]] += len(g['heard'])
p('Tells: ' + '; '.join(f'{e} sent {sent[e]}, heard {heard[e]}' for e in sorted(sent)))
examples = collections.Counter()
for b in BOTS:
    for g in per_bot[b]:
        for t in g['told']:
            examples[(engines[b], t)] += 1
p('Most said: ' + '; '.join(f'{e}: "{t}" x{c}' for (e, t), c in examples.most_common(12)))
if 'human' in engines.values():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import h_talk
    out += h_talk.report(D, records, per_bot, engines, TEAM, winners, flag_losers)
text = '\n'.join(out) + '\n'
os.makedirs(D, exist_ok=True)
open(os.path.join(D, 'table.md'), 'w').write(text)
print(text, end='')
