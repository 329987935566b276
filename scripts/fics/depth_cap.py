#!/usr/bin/env python3
"""A CECP engine at a fixed depth, for plumbing tests of the harness without search time:
runs ENGINE and passes the dialogue through both ways, sending `sd DEPTH` to it after every
`new` (which clears a depth limit). bots.sh uses it for the `rukav` seats when DEPTH is set.

usage: depth_cap.py DEPTH ENGINE [ARG...]
"""
import subprocess
import sys
import threading

depth = sys.argv[1]
engine = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                          bufsize=1)


def pump():
    for line in engine.stdout:
        sys.stdout.write(line)
        sys.stdout.flush()


threading.Thread(target=pump, daemon=True).start()
for line in sys.stdin:
    engine.stdin.write(line)
    if line.split()[:1] == ['new']:
        engine.stdin.write(f'sd {depth}\n')
    engine.stdin.flush()
    if line.strip() == 'quit':
        break
engine.stdin.close()
try:
    engine.wait(timeout=5)
except subprocess.TimeoutExpired:
    engine.kill()
