"""The engine's score in a match.py move comment (`+0.52/14 0.31s`,
`-M3/20 0.05s`), shared by the scripts that read match PGNs."""
import re
from typing import NamedTuple, Optional

SCORE = re.compile(r"\s*([+-]?)(M?)(\d+(?:\.\d+)?)/(\d+)")
MATE_PAWNS = 100.0


class Score(NamedTuple):
    """A move comment's score, from the mover's side."""

    pawns: float
    """In pawns; a mate counts as +/- MATE_PAWNS."""
    mate: bool
    depth: int


def parse(comment: Optional[str]) -> Optional[Score]:
    """The score of a move comment, or None when it has none (a book move)."""
    m = SCORE.match(comment or "")
    if not m:
        return None
    value = MATE_PAWNS if m.group(2) else float(m.group(3))
    return Score(-value if m.group(1) == "-" else value, bool(m.group(2)), int(m.group(4)))
