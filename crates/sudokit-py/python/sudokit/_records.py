"""The answers' classes: the fields of the records ``sudokit ... --format json`` writes.

Each class is a frozen dataclass whose fields are the CLI record's, in the CLI's order, and
whose ``to_dict()`` gives back that record exactly: optional fields the CLI leaves out are
left out, and ER/EP/ED (floats here, for arithmetic and pandas) are written with one decimal
as the CLI writes them. A batch record also carries ``file``, ``line`` and ``trailing``,
where the puzzle was read; a Python caller holds those itself, so they are not fields here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple, Optional, overload


def _tenths(value: Optional[str]) -> Optional[float]:
    return None if value is None else float(value)


def _plain(value: Any) -> Any:
    """``value`` as JSON holds it: records as dicts, tuples as lists, ratings in tenths."""
    if isinstance(value, _Record):
        return value.to_dict()
    if isinstance(value, Link):
        return {"from": _plain(value.start), "to": _plain(value.end), "strong": value.strong}
    if isinstance(value, tuple) and hasattr(value, "_asdict"):
        return {k: _plain(v) for k, v in value._asdict().items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, float):
        return f"{value:.1f}"
    return value


class _Record:
    """``to_dict()`` for the dataclasses below."""

    #: Fields the CLI leaves out when empty, not only when absent.
    _omitted_when_empty: ClassVar[frozenset[str]] = frozenset()

    def to_dict(self) -> dict[str, Any]:
        """The record as ``--format json`` writes it (without ``file``, ``line``, ``trailing``)."""
        record: dict[str, Any] = {}
        for field in dataclasses.fields(self):  # type: ignore[arg-type]
            value = getattr(self, field.name)
            if value is None or (field.name in self._omitted_when_empty and not value):
                continue
            record[field.name] = _plain(value)
        return record


class Mark(NamedTuple):
    """A placement or an elimination: ``digit`` in ``cell`` (``"r1c3"``)."""

    cell: str
    digit: int


class Node(NamedTuple):
    """A chain's node: ``digit`` in one cell, or in a group of cells."""

    digit: int
    cells: tuple[str, ...]


class Link(NamedTuple):
    """A chain's link from ``start`` to ``end``: strong (drawn solid) or weak (dashed).

    The CLI names the ends ``from`` and ``to``, which ``to_dict()`` of a Step writes.
    """

    start: Node
    end: Node
    strong: bool


@dataclass(frozen=True)
class Step(_Record):
    """One step of a solve, as ``sudokit explain --format json`` writes it.

    >>> import sudokit
    >>> xy_wing = "16.87.34.28.46.7.147..516.89421358678569274137316489..697.1.584518794236324586179"
    >>> step = sudokit.hint(xy_wing, level=3).step
    >>> step.technique, step.eliminations
    ('XY-Wing', (Mark(cell='r3c3', digit=9),))
    >>> step.to_dict()["chain"]
    '(9=5)r1c3-(5=2)r1c9-(2=9)r3c8 => r3c3<>9'
    """

    _omitted_when_empty = frozenset({"fins", "links"})

    step: int
    technique: str
    placements: tuple[Mark, ...]
    eliminations: tuple[Mark, ...]
    cells: tuple[str, ...]
    fins: tuple[str, ...]
    houses: tuple[str, ...]
    digits: tuple[int, ...]
    chain: Optional[str]
    links: tuple[Link, ...]
    text: str

    @classmethod
    def from_dict(cls, record: dict[str, Any]) -> Step:
        """The step of a record ``explain --format json`` wrote."""

        def marks(key: str) -> tuple[Mark, ...]:
            return tuple(Mark(m["cell"], m["digit"]) for m in record[key])

        def node(n: dict[str, Any]) -> Node:
            return Node(n["digit"], tuple(n["cells"]))

        return cls(
            step=record["step"],
            technique=record["technique"],
            placements=marks("placements"),
            eliminations=marks("eliminations"),
            cells=tuple(record["cells"]),
            fins=tuple(record.get("fins", ())),
            houses=tuple(record["houses"]),
            digits=tuple(record["digits"]),
            chain=record.get("chain"),
            links=tuple(
                Link(node(k["from"]), node(k["to"]), k["strong"]) for k in record.get("links", ())
            ),
            text=record["text"],
        )

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Explanation(_Record, Sequence[Step]):
    """The whole solve: a sequence of Steps, and what it came to.

    It is the ``explain --format json`` record; indexing, ``len`` and iteration reach its
    steps, so it reads as the list of steps it is.

    >>> import sudokit
    >>> xy_wing = "16.87.34.28.46.7.147..516.89421358678569274137316489..697.1.584518794236324586179"
    >>> solve = sudokit.explain(xy_wing)
    >>> len(solve), solve[0].technique, solve.hardest, solve.solved
    (14, 'XY-Wing', 'XY-Wing', True)
    >>> [str(step) for step in solve][1]
    'Hidden Single: r3c8=9 in row 3'
    """

    puzzle: str
    solved: bool
    solution: Optional[str]
    remaining: Optional[str]
    steps: tuple[Step, ...]
    hardest: Optional[str]
    techniques: dict[str, int]

    @classmethod
    def from_dict(cls, record: dict[str, Any]) -> Explanation:
        """The explanation of a record ``explain --format json`` wrote."""
        return cls(
            puzzle=record["puzzle"],
            solved=record["solved"],
            solution=record.get("solution"),
            remaining=record.get("remaining"),
            steps=tuple(Step.from_dict(s) for s in record["steps"]),
            hardest=record.get("hardest"),
            techniques=record["techniques"],
        )

    @overload
    def __getitem__(self, index: int) -> Step: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Step]: ...

    def __getitem__(self, index: int | slice) -> Step | Sequence[Step]:
        return self.steps[index]

    def __len__(self) -> int:
        return len(self.steps)

    def __iter__(self) -> Iterator[Step]:
        return iter(self.steps)


@dataclass(frozen=True)
class Rating(_Record):
    """Sudoku Explainer's ER/EP/ED and the rest of ``sudokit rate --format json``'s record.

    ``er``, ``ep`` and ``ed`` are floats; ``complete`` is False when ``max_level`` capped the
    search (``er`` is then a lower bound); ``assumptions`` is text (``"2"``, or ``">=4"``
    past the cap); ``guesses`` are the exact solver's branch points.

    >>> import sudokit
    >>> inkala = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    >>> rating = sudokit.rate(inkala)
    >>> rating.er, rating.level, rating.hardest
    (10.7, 'diabolical', 'Dynamic Contradiction Forcing Chains (+ Forcing Chains)')
    >>> rating.line()
    '8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.. ER=10.7/10.7/9.7'
    >>> rating.to_dict()["ed"]
    '9.7'
    """

    puzzle: str
    er: float
    ep: float
    ed: float
    complete: bool
    level: str
    hardest: Optional[str]
    assumptions: str
    guesses: int

    @classmethod
    def from_dict(cls, record: dict[str, Any]) -> Rating:
        """The rating of a record ``rate --format json`` wrote."""
        return cls(
            puzzle=record["puzzle"],
            er=float(record["er"]),
            ep=float(record["ep"]),
            ed=float(record["ed"]),
            complete=record["complete"],
            level=record["level"],
            hardest=record.get("hardest"),
            assumptions=record["assumptions"],
            guesses=record["guesses"],
        )

    def line(self, trailing: str = "") -> str:
        """The line ``sudokit rate`` writes: the puzzle, `` ER=er/ep/ed`` (``+`` after a lower
        bound), then ``trailing``, the text that followed the puzzle on its input line."""
        plus = "" if self.complete or self.er >= 20 else "+"
        space = " " if trailing and not trailing[0].isspace() else ""
        return f"{self.puzzle} ER={self.er:.1f}{plus}/{self.ep:.1f}/{self.ed:.1f}{space}{trailing}"


@dataclass(frozen=True)
class Transform(_Record):
    """A transformation of the grid: transpose or not, then which source row and column
    (one-based) lands in each row and column, and ``digits``, the images of 1 to 9.

    >>> import sudokit
    >>> inkala = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    >>> moved = inkala[27:54] + inkala[:27] + inkala[54:]  # bands 1 and 2 swapped
    >>> sudokit.equivalent(inkala, moved)
    Transform(transpose=False, rows='456123789', cols='123456789', digits='123456789')
    """

    transpose: bool
    rows: str
    cols: str
    digits: str

    @classmethod
    def from_dict(cls, record: dict[str, Any]) -> Transform:
        """The transform of a record the CLI wrote."""
        return cls(record["transpose"], record["rows"], record["cols"], record["digits"])


@dataclass(frozen=True)
class Hint(_Record):
    """``sudokit hint --format json``'s record: the ``hint`` at ``level`` and the technique's
    name, the whole ``step`` at level 3; or ``error`` saying why there is none (solved, or
    no technique in use applies).

    >>> import sudokit
    >>> sudokit.hint("16.87.34.28.46.7.147..516.89421358678569274137316489..697.1.584518794236324586179", level=2).hint
    'Look for an XY-Wing on digit 9 at r1c9, r1c3, r3c8.'
    """

    level: int
    technique: Optional[str]
    hint: Optional[str]
    step: Optional[Step]
    error: Optional[str]

    @classmethod
    def from_dict(cls, record: dict[str, Any]) -> Hint:
        """The hint of a record ``hint --format json`` wrote."""
        step = record.get("step")
        return cls(
            level=record["level"],
            technique=record.get("technique"),
            hint=record.get("hint"),
            step=None if step is None else Step.from_dict(step),
            error=record.get("error"),
        )


@dataclass(frozen=True)
class Generated(_Record):
    """A puzzle ``sudokit generate --format json`` would make: with its solution, and
    ``seed`` and ``index``, which make it again; its rating when a level was asked for.

    >>> import sudokit
    >>> made = sudokit.generate(seed=3, index=2, symmetry="rot180", level="hard")
    >>> made.level, sudokit.count(made.puzzle)
    ('hard', 1)
    """

    puzzle: str
    solution: str
    clues: int
    symmetry: str
    seed: int
    index: int
    er: Optional[float]
    ep: Optional[float]
    ed: Optional[float]
    level: Optional[str]
    hardest: Optional[str]

    @classmethod
    def from_dict(cls, record: dict[str, Any]) -> Generated:
        """The puzzle of a record ``generate --format json`` wrote."""
        return cls(
            puzzle=record["puzzle"],
            solution=record["solution"],
            clues=record["clues"],
            symmetry=record["symmetry"],
            seed=record["seed"],
            index=record["index"],
            er=_tenths(record.get("er")),
            ep=_tenths(record.get("ep")),
            ed=_tenths(record.get("ed")),
            level=record.get("level"),
            hardest=record.get("hardest"),
        )


@dataclass(frozen=True)
class Error(_Record):
    """A batch's answer for a puzzle that gave none: a value in its place, not an exception.

    ``error`` says why (the positioned message for text that is not a puzzle); ``puzzle`` is
    the puzzle when it was read (then it has no solution, or several). ``to_dict()`` is the
    CLI's error record.

    >>> import sudokit
    >>> sudokit.solve_many(["12x"])
    [Error(puzzle=None, error="line 1, column 3: bad character 'x': expected a digit 1-9 or a blank (. 0 _ - *)")]
    """

    puzzle: Optional[str]
    error: str

    @classmethod
    def from_dict(cls, record: dict[str, Any]) -> Error:
        """The error of a record with ``error``."""
        return cls(record.get("puzzle"), record["error"])

