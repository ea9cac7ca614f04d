"""sudokit: the sudoku engine, from Python.

Every function takes a puzzle as text the command line reads (an 81-character line, a drawn
grid) and answers with the record ``sudokit ... --format json`` writes, as a dict. The
``*_many`` functions take any iterable of puzzles, work on every core without the GIL, and
answer in order, a bad puzzle giving ``{"error": ...}`` in its place.

>>> import sudokit
>>> sudokit.solve("8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..")[:9]
'812753649'
"""

from ._sudokit import (
    canon,
    canon_many,
    count,
    equivalent,
    explain,
    explain_many,
    generate,
    hint,
    rate,
    rate_many,
    solutions,
    solve,
    solve_many,
)

__all__ = [
    "canon",
    "canon_many",
    "count",
    "equivalent",
    "explain",
    "explain_many",
    "generate",
    "hint",
    "rate",
    "rate_many",
    "solutions",
    "solve",
    "solve_many",
]
