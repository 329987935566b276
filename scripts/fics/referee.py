#!/usr/bin/env python3
"""Referee of the local FICS bughouse harness.

Logs in as guest Referee, has the four zippy bots partner up (BugA+BugB, BugC+BugD) and challenge
each other in rotation through xboard's -zippyPassword remote control (`tell BOT xyzzy <command>`),
observes both boards of every game, and writes one JSON line per game to logs/games-TAG.jsonl:
per board the players, the server's result line, plies, drops by colour, the clocks at the end,
and whether the referee had to ask for a flag because a board stood still (a hang).

usage: referee.py --tag T --games N [--tc "2 0,3 0"]   (time controls used in rotation)
Board 1 is challenger vs challengee, board 2 their partners. Needs FICS_E2E (logs/ is written there).
"""
import argparse
import json
import os
import queue
import re
import socket
import sys
import threading
import time

ap = argparse.ArgumentParser()
ap.add_argument('--tag', required=True)
ap.add_argument('--games', type=int, required=True, help='games to play')
ap.add_argument('--tc', default='2 0', help='comma-separated time controls, used in rotation')
ap.add_argument('--pw', default='xyzzy')
ap.add_argument('--name', default='Referee')
ap.add_argument('--stall', type=float, default=150,
                help='seconds without a move on a board before both players are asked to flag (a hang)')
ap.add_argument('--game-timeout', type=float, default=900)
args = ap.parse_args()
tcs = [t.strip() for t in args.tc.split(',') if t.strip()]

L = os.path.join(os.environ['FICS_E2E'], 'logs')
raw = open(f'{L}/referee-{args.tag}.log', 'a', buffering=1)
res = open(f'{L}/games-{args.tag}.jsonl', 'a', buffering=1)


def log(msg):
    line = f'{time.strftime("%H:%M:%S")} {msg}'
    print(line, flush=True)
    raw.write('## ' + line + '\n')


sock = socket.create_connection(('127.0.0.1', 5000))
lines = queue.Queue()


def reader():
    buf = ''
    while True:
        data = sock.recv(65536)
        if not data:
            lines.put(None)
            return
        buf += data.decode('latin1').replace('\r', '')
        *complete, buf = buf.split('\n')
        for ln in complete:
            ln = ln.replace('fics% ', '')
            raw.write(f'{time.time():.2f} {ln}\n')
            lines.put(ln)


threading.Thread(target=reader, daemon=True).start()


def send(command):
    raw.write(f'{time.time():.2f} >>> {command}\n')
    sock.sendall((command + '\n').encode())
    time.sleep(0.25)


def drain(seconds):
    end = time.time() + seconds
    out = []
    while time.time() < end:
        try:
            ln = lines.get(timeout=max(0.01, end - time.time()))
        except queue.Empty:
            break
        if ln is None:
            log('server closed the connection')
            sys.exit(1)
        out.append(ln)
    return out


def tell_bot(bot, command):
    send(f'tell {bot} {args.pw} {command}')


for c in (args.name, '', 'set style 12', 'set gin 1', 'set width 240', 'set open 0', 'set shout 0', 'set cshout 0'):
    send(c)
    time.sleep(0.3)
drain(2)
tell_bot('BugA', 'partner BugB')
time.sleep(1)
tell_bot('BugC', 'partner BugD')
time.sleep(1)
drain(2)

pairings = [('BugA', 'BugC'), ('BugC', 'BugA'), ('BugB', 'BugD'), ('BugD', 'BugB')]
re_create = re.compile(r'^\{Game (\d+) \((\w+) vs\. (\w+)\) Creating (.*)\}')
re_end = re.compile(r'^\{Game (\d+) \((\w+) vs\. (\w+)\) (.*)\}\s*(\S+)\s*$')
played = 0
attempt = 0
while played < args.games:
    challenger, challengee = pairings[attempt % len(pairings)]
    tc = tcs[attempt % len(tcs)]
    attempt += 1
    log(f'game {played + 1}: {challenger} challenges {challengee} ({tc} bughouse)')
    boards = {}
    t0 = time.time()
    tell_bot(challenger, f'match {challengee} {tc} bughouse')
    tries = 1
    while len(boards) < 2 and time.time() - t0 < 40:
        for ln in drain(1):
            m = re_create.match(ln)
            if m:
                g = int(m.group(1))
                boards[g] = dict(game=g, white=m.group(2), black=m.group(3), kind=m.group(4),
                                 plies=0, drops={'W': 0, 'B': 0}, last_move='none', last_move_t=time.time(),
                                 result=None, reason=None, flag_asks=0)
                send(f'observe {g}')
        if len(boards) < 2 and time.time() - t0 > 12 * tries and tries < 3:
            log('no game yet: repeating the challenge (a zippy bot declines while not ready)')
            tell_bot(challenger, f'match {challengee} {tc} bughouse')
            tries += 1
    if len(boards) < 2:
        log(f'FAILED to start a game: {boards}')
        if attempt > args.games * 2 + 4:
            break
        time.sleep(5)
        continue
    played += 1
    log('started: ' + '; '.join(f'game {b["game"]}: {b["white"]} (W) vs {b["black"]} (B)' for b in boards.values()))
    started = time.time()
    timed_out = False
    while any(b['result'] is None for b in boards.values()):
        now = time.time()
        for ln in drain(1):
            if ln.startswith('<12> '):
                f = ln.split()
                b = boards.get(int(f[16]))
                if not b:
                    continue
                key = (f[26], f[9], f[27])  # move number, side to move, move: one update per move
                if f[29] != 'none' and key != b.get('lastkey'):
                    b['lastkey'] = key
                    b['plies'] += 1
                    b['last_move'] = f[29]
                    b['last_move_t'] = now
                    mover = 'B' if f[9] == 'W' else 'W'
                    if '@' in f[27]:
                        b['drops'][mover] += 1
                    b['clocks_ms'] = (int(f[24]), int(f[25]))
                    b['to_move'] = f[9]
            else:
                m = re_end.match(ln.strip())
                if m and int(m.group(1)) in boards and not m.group(4).startswith('Creating'):
                    b = boards[int(m.group(1))]
                    if b['result'] is None:
                        b['result'], b['reason'] = m.group(5), m.group(4)
                        b['result_line'] = ln.strip()
                        log(f'board {b["game"]} ended: {ln.strip()}')
        for b in boards.values():
            if b['result'] is None and now - b['last_move_t'] > args.stall * (1 + b['flag_asks']):
                b['flag_asks'] += 1
                log(f'HANG: board {b["game"]} without a move for {now - b["last_move_t"]:.0f} s '
                    f'(last {b["last_move"]}, clocks {b.get("clocks_ms")}): both players asked to flag')
                tell_bot(b['white'], 'flag')
                tell_bot(b['black'], 'flag')
        if now - started > args.game_timeout:
            log('GAME TIMEOUT: giving up on this game')
            timed_out = True
            break
    record = dict(tag=args.tag, n=played, challenger=challenger, challengee=challengee, tc=tc,
                  timed_out=timed_out, duration=round(time.time() - started, 1),
                  boards=[{k: v for k, v in b.items() if k != 'lastkey'} for b in boards.values()])
    res.write(json.dumps(record) + '\n')
    log('record: ' + json.dumps(record))
    for g in boards:
        send(f'unobserve {g}')
    drain(2)
    time.sleep(4)
log(f'done after {played} games')
send('quit')
