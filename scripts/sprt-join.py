#!/usr/bin/env python3
"""Joins the parts of one SPRT played across sessions: reads the PGNs of
match.py (game pairs are games 2k-1 and 2k of a file, as match.py numbers
them in its Round tag), adds pentanomial counts carried from earlier parts
(`--prior`), and prints the joined W/D/L, pentanomial, Elo with its 95%
interval and the GSPRT log-likelihood ratio (the multinomial method that
fishtest and match.py use).

    python3 scripts/sprt-join.py --new zhh --prior 31,22,129,17,48 part3.pgn

Needs nothing but Python.
"""
import argparse
import math
import re
import sys

VALUES = (0.0, 0.25, 0.5, 0.75, 1.0)
TAG = re.compile(r'^\[(\w+) "(.*)"\]')


def games(path):
    """Yields the header tags of each game of a PGN file."""
    tags = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = TAG.match(line)
            if m:
                if m.group(1) == "Event" and tags:
                    yield tags
                    tags = {}
                tags[m.group(1)] = m.group(2)
    if tags:
        yield tags


def points(tags, new):
    """The engine `new`'s points in a game, None for an unfinished one."""
    result = tags.get("Result", "*")
    if result == "1/2-1/2":
        return 0.5
    if result not in ("1-0", "0-1"):
        return None
    white_won = result == "1-0"
    return 1.0 if (tags.get("White") == new) == white_won else 0.0


def elo(score):
    return -400 * math.log10(1 / score - 1) if 0 < score < 1 else math.copysign(math.inf, score - 0.5)


def mle(probs, mean):
    """The distribution on VALUES nearest `probs` with the given mean."""
    low, high = -1 / (max(VALUES) - mean), 1 / (mean - min(VALUES))
    for _ in range(200):
        lam = (low + high) / 2
        if sum(p * (v - mean) / (1 + lam * (v - mean)) for p, v in zip(probs, VALUES)) > 0:
            low = lam
        else:
            high = lam
    lam = (low + high) / 2
    out = [p / (1 + lam * (v - mean)) for p, v in zip(probs, VALUES)]
    return [p / sum(out) for p in out]


def llr(counts, elo0, elo1):
    """GSPRT log-likelihood ratio of elo1 against elo0."""
    if not sum(counts):
        return 0.0
    reg = [max(c, 1e-3) for c in counts]
    observed = [c / sum(reg) for c in reg]
    score = lambda e: 1 / (1 + 10 ** (-e / 400))
    p0, p1 = mle(observed, score(elo0)), mle(observed, score(elo1))
    return sum(c * math.log(a / b) for c, a, b in zip(counts, p1, p0) if c)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pgn", nargs="*")
    ap.add_argument("--new", required=True, help="the tested engine's name in the PGNs")
    ap.add_argument("--prior", default="0,0,0,0,0",
                    help="pentanomial counts of earlier parts, [0, 0.5, 1, 1.5, 2] pair points")
    ap.add_argument("--prior-wdl", default="0,0,0", help="W,D,L of earlier parts")
    ap.add_argument("--elo0", type=float, default=0.0)
    ap.add_argument("--elo1", type=float, default=10.0)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    args = ap.parse_args()
    penta = [int(x) for x in args.prior.split(",")]
    wdl = [int(x) for x in args.prior_wdl.split(",")]
    if len(penta) != 5 or len(wdl) != 3:
        sys.exit("--prior needs 5 counts, --prior-wdl 3")
    for path in args.pgn:
        pairs = {}
        for tags in games(path):
            p = points(tags, args.new)
            if p is None:
                continue
            wdl[{1.0: 0, 0.5: 1, 0.0: 2}[p]] += 1
            pairs.setdefault((int(tags.get("Round", "0")) - 1) // 2, []).append(p)
        for pts in pairs.values():
            if len(pts) == 2:
                penta[round(2 * sum(pts))] += 1
        print(f"{path}: {sum(len(p) for p in pairs.values())} games")
    n = sum(penta)
    if not n:
        sys.exit("no complete pairs")
    mean = sum(c * v for c, v in zip(penta, VALUES)) / n
    sd = math.sqrt(sum(c * (v - mean) ** 2 for c, v in zip(penta, VALUES)) / n / n)
    half = (elo(mean + 1.96 * sd) - elo(mean - 1.96 * sd)) / 2
    ratio = llr(penta, args.elo0, args.elo1)
    upper = math.log((1 - args.beta) / args.alpha)
    lower = math.log(args.beta / (1 - args.alpha))
    verdict = "H1 accepted" if ratio >= upper else "H0 accepted" if ratio <= lower else "undecided"
    print(f"joined: {sum(wdl)} games, W {wdl[0]} D {wdl[1]} L {wdl[2]}; pentanomial {penta} ({n} pairs)")
    print(f"Elo {elo(mean):+.1f} +/- {half:.1f} (95%, pentanomial); "
          f"LLR {ratio:.2f} [{lower:.2f}, {upper:.2f}] for elo0={args.elo0:g} elo1={args.elo1:g}: {verdict}")


if __name__ == "__main__":
    main()
