"""sudokit: the sudoku engine, from Python.

A puzzle is text the command line reads: an 81-character line (digits, and ``.`` or ``0``
for blanks), or a drawn grid. A puzzle that cannot be read raises ``ValueError`` with the
CLI's positioned message. Answers are small typed classes (:class:`Rating`, :class:`Step`,
:class:`Transform`, ...) with the fields of the CLI's ``--format json`` records, and
``to_dict()`` gives that record back.

The ``*_many`` functions take any iterable of puzzles (a list, a generator, a pandas Series,
a numpy array of str), work on every core without the GIL, and answer in input order; a
puzzle that gives no answer becomes an :class:`Error` value in its place, so one bad line
never loses the rest. ``progress=True`` shows a tqdm bar.

>>> import sudokit
>>> sudokit.solve("8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..")[:9]
'812753649'
>>> x_wing = "....2.65.6.2.14...4....8.2..71......83.....16......78..6.5....3...14.5.8.84.9...."
>>> [(r.er, r.hardest) for r in sudokit.rate_many([x_wing, x_wing[::-1]])]
[(3.2, 'X-Wing'), (3.2, 'X-Wing')]
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterable, Sized
from itertools import islice
from typing import Any, Callable, Optional, Protocol, TypeVar, Union

from . import _sudokit
from ._records import (
    Error,
    Explanation,
    Generated,
    Hint,
    Link,
    Mark,
    Node,
    Rating,
    Step,
    Transform,
)

__all__ = [
    "Error",
    "Explanation",
    "Generated",
    "Hint",
    "Link",
    "Mark",
    "Node",
    "ProgressBar",
    "Rating",
    "Step",
    "Transform",
    "canon",
    "canon_many",
    "count",
    "equivalent",
    "explain",
    "explain_many",
    "generate",
    "hint",
    "rate",
    "rate_lines",
    "rate_many",
    "solutions",
    "solve",
    "solve_many",
]

T = TypeVar("T")


class ProgressBar(Protocol):
    """What ``progress=`` takes besides True: anything with tqdm's ``update(n)``."""

    def update(self, n: int) -> object: ...


#: Puzzles handed to the engine at once. The input is read this many at a time, so a
#: generator over a big file is never copied whole; results do not depend on it.
_CHUNK = 16384


def solve(puzzle: str) -> Optional[str]:
    """The first solution of ``puzzle`` as an 81-digit line, or None when it has none.

    >>> solve("..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..")
    '145327698839654127672918543496185372218473956753296481367542819984761235521839764'
    >>> solve("11" + "." * 79)
    Traceback (most recent call last):
    ...
    ValueError: line 1, column 2: digit 1 twice in row 1: r1c1 and r1c2
    """
    return _sudokit.solve(puzzle)


def count(puzzle: str, limit: int = 2) -> int:
    """The number of solutions, counted up to ``limit``: ``count(p) == 1`` means unique.

    >>> count("." * 81, limit=1000)
    1000
    """
    return _sudokit.count(puzzle, limit)


def solutions(puzzle: str, limit: int) -> list[str]:
    """Up to ``limit`` solutions, in the solver's (fixed) order.

    >>> len(set(solutions("." * 81, 5)))
    5
    """
    return _sudokit.solutions(puzzle, limit)


def rate(puzzle: str, max_level: int = 5) -> Rating:
    """Sudoku Explainer's rating, as ``sudokit rate`` gives it; ValueError unless the puzzle
    has exactly one solution. ``max_level`` below 5 caps the forcing-chain search: faster on
    the hardest puzzles, whose ER is then a lower bound (``complete`` False).

    >>> rate("..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..").er
    10.6
    """
    return Rating.from_dict(_sudokit.rate(puzzle, max_level))


def canon(puzzle: str) -> tuple[str, Transform]:
    """The minlex form (the least of the puzzle's 3,359,232 transformations read as a line,
    blanks ``.``) and the transform that maps the puzzle onto it.

    >>> form, transform = canon("..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..")
    >>> form
    '.....1..2..1.3..4..5.6.......27..1...6...2..58...4..3...3...9...2...7...9...8...1'
    """
    return _canonical(_sudokit.canon(puzzle))


def equivalent(a: str, b: str) -> Optional[Transform]:
    """The transform that maps ``a`` onto ``b``, or None when they are not the same puzzle."""
    found = _sudokit.equivalent(a, b)
    return None if found is None else Transform.from_dict(found)


def explain(puzzle: str, techniques: str = "all") -> Explanation:
    """The whole solve, step by step with ``techniques`` (a preset such as ``singles`` or
    ``all``, or a comma-separated list), as ``sudokit explain`` gives it. Stops where the
    techniques do (``solved`` False). ValueError unless the puzzle has one solution.

    >>> solve = explain("..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..", "singles")
    >>> solve.solved, solve.remaining is not None, len(solve) > 0
    (False, True, True)
    """
    return Explanation.from_dict(_sudokit.explain(puzzle, techniques))


def hint(puzzle: str, level: int = 1, techniques: str = "all") -> Hint:
    """The next step, told at ``level``: 1 names the technique, 2 also says where, 3 gives
    the whole step. ValueError unless the puzzle has one solution.

    >>> hint("....2.65.6.2.14...4....8.2..71......83.....16......78..6.5....3...14.5.8.84.9....").hint
    'Look for a Hidden Single.'
    """
    return Hint.from_dict(_sudokit.hint(puzzle, level, techniques))


def generate(
    seed: int = 0, index: int = 0, symmetry: str = "none", level: Optional[str] = None
) -> Generated:
    """Puzzle number ``index`` of the run seeded ``seed``: unique and minimal, with
    ``symmetry`` (``none``, ``rot180``, ``diagonal``, ...) and, when asked, a ``level``
    word (``easy`` to ``diabolical``). The same arguments give the same puzzle."""
    return Generated.from_dict(_sudokit.generate(seed, index, symmetry, level))


def solve_many(
    puzzles: Iterable[str], progress: Union[bool, ProgressBar] = False
) -> list[Union[str, None, Error]]:
    """:func:`solve` for every puzzle, on every core: in order, an :class:`Error` in place
    of a puzzle that cannot be read.

    >>> solve_many(["." * 81, "12x"])[1].error[:31]
    'line 1, column 3: bad character'
    """
    return _batch(_sudokit.solve_many, puzzles, progress, None)


def rate_many(
    puzzles: Iterable[str], progress: Union[bool, ProgressBar] = False, max_level: int = 5
) -> list[Union[Rating, Error]]:
    """:func:`rate` for every puzzle, on every core: in order, an :class:`Error` in place of a
    puzzle that cannot be read or has no unique solution. With Dask,
    ``bag.map_partitions(sudokit.rate_many)`` rates a bag of puzzles on many machines."""
    return _batch(_sudokit.rate_many, puzzles, progress, Rating.from_dict, max_level=max_level)


def canon_many(
    puzzles: Iterable[str], progress: Union[bool, ProgressBar] = False
) -> list[Union[tuple[str, Transform], Error]]:
    """:func:`canon` for every puzzle, on every core, in order, errors in place."""
    return _batch(_sudokit.canon_many, puzzles, progress, _canonical)


def explain_many(
    puzzles: Iterable[str], progress: Union[bool, ProgressBar] = False, techniques: str = "all"
) -> list[Union[Explanation, Error]]:
    """:func:`explain` for every puzzle, on every core: in order, an :class:`Error` in place
    of a puzzle that cannot be read or has no unique solution."""
    return _batch(
        _sudokit.explain_many, puzzles, progress, Explanation.from_dict, techniques=techniques
    )


def rate_lines(lines: Iterable[str], progress: Union[bool, ProgressBar] = False) -> list[str]:
    """The lines ``sudokit rate`` writes for these input lines: each puzzle's rating and the
    text that followed it, blank and ``#`` lines skipped, ``error: ...`` for a bad puzzle.

    It is the Dask recipe's step: ``dask.bag.read_text(path).map_partitions(rate_lines)``
    equals ``sudokit rate path`` line for line (error lines name no file or line number, as
    a partition does not know them).

    >>> rate_lines(["# a comment", "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97.. Inkala"])
    ['..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97.. ER=10.6/1.2/1.2 Inkala']
    """
    kept = list(lines)
    trailing = _sudokit.trailing(kept)
    puzzles = [line for line, after in zip(kept, trailing) if after is not None]
    ratings = rate_many(puzzles, progress)
    after = [t for t in trailing if t is not None]
    return [
        f"error: {r.error}" if isinstance(r, Error) else r.line(t) for r, t in zip(ratings, after)
    ]


def _canonical(record: dict[str, Any]) -> tuple[str, Transform]:
    return record["canonical"], Transform.from_dict(record["transform"])


def _batch(
    native: Callable[..., tuple[list[Any], list[int]]],
    puzzles: Iterable[str],
    progress: Union[bool, ProgressBar],
    answer: Optional[Callable[[Any], T]],
    **options: Any,
) -> list[Any]:
    """Feeds ``puzzles`` to ``native`` a chunk at a time, moving ``progress`` as the engine
    works, and turns its records into answers (``answer``, unless they are answers already)
    and its failures into :class:`Error` values."""
    if isinstance(puzzles, (str, bytes)):
        raise TypeError("expected an iterable of puzzles, got one str: wrap it in a list")
    total = len(puzzles) if isinstance(puzzles, Sized) else None
    bar, close = _progress_bar(progress, total)
    update = None if bar is None else bar.update
    results: list[Any] = []
    items = iter(puzzles)
    try:
        while True:
            chunk = list(islice(items, _CHUNK))
            if not chunk:
                break
            records, failed = native(chunk, update, **options)
            for at in failed:
                records[at] = Error.from_dict(records[at])
            if answer is not None:
                records = [r if type(r) is Error else answer(r) for r in records]
            results.extend(records)
    finally:
        close()
    return results


def _progress_bar(
    progress: Union[bool, ProgressBar], total: Optional[int]
) -> tuple[Optional[ProgressBar], Callable[[], None]]:
    """The bar ``progress`` asks for, and how to close it: a tqdm bar for True (a plain
    counter on stderr, with a note, when tqdm is not installed), or the caller's own bar,
    which the caller closes."""
    if progress is False:
        return None, lambda: None
    if progress is not True:
        return progress, lambda: None
    try:
        # Looked up by name: tqdm is optional, and ships no type stubs.
        tqdm = importlib.import_module("tqdm.auto").tqdm
    except ImportError:
        counter = _Counter(total)
        return counter, counter.close
    bar = tqdm(total=total, unit="puzzle")
    return bar, bar.close


class _Counter:
    """A progress line on stderr for when tqdm is not installed."""

    def __init__(self, total: Optional[int]) -> None:
        self.done = 0
        self.total = "" if total is None else f"/{total}"
        print("sudokit: tqdm is not installed (pip install tqdm); counting plainly", file=sys.stderr)

    def update(self, n: int) -> None:
        self.done += n
        print(f"\r{self.done}{self.total} puzzles", end="", file=sys.stderr, flush=True)

    def close(self) -> None:
        print(file=sys.stderr)
