#!/usr/bin/env python3
"""Elo with a 95% interval from match.py's per-game lines, for runs whose
summary did not get written (match.py's JSON writer can hit Python's
recursion limit on very long games). Games 2k-1 and 2k are one pair (same
opening, colours reversed), scored pentanomially as match.py does.

Usage: python3 scripts/log-elo.py LOG [ENGINE1]
"""
import math, re, sys

pat = re.compile(r"^Finished game (\d+) \((\S+) vs (\S+)\): (1-0|0-1|1/2-1/2) \{(.*)\}")
log, name = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else None)
games, reasons = {}, {}
for line in open(log):
    m = pat.match(line)
    if not m:
        continue
    n, white, black, res, why = int(m[1]), m[2], m[3], m[4], m[5]
    name = name or white
    pts = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[res]
    games[n] = pts if white == name else 1 - pts
    reasons[why] = reasons.get(why, 0) + 1
w = sum(1 for p in games.values() if p == 1); d = sum(1 for p in games.values() if p == 0.5)
l = len(games) - w - d
pairs = [games[k] + games[k + 1] for k in range(1, max(games) + 1, 2) if k in games and k + 1 in games]
mean = sum(pairs) / len(pairs) / 2
var = sum((p / 2 - mean) ** 2 for p in pairs) / len(pairs)
se = math.sqrt(var / len(pairs))
elo = lambda s: -400 * math.log10(1 / s - 1) if 0 < s < 1 else float("inf") * (1 if s >= 1 else -1)
lo, hi = elo(max(1e-9, mean - 1.96 * se)), elo(min(1 - 1e-9, mean + 1.96 * se))
print(f"{name}: W {w} D {d} L {l} of {len(games)}, score {100 * sum(games.values()) / len(games):.1f}%")
print(f"Elo {elo(mean):+.1f} (95% interval {lo:+.1f} .. {hi:+.1f}) [pentanomial, {len(pairs)} pairs]")
print("Endings: " + "; ".join(f"{k}: {v}" for k, v in sorted(reasons.items(), key=lambda x: -x[1])))
