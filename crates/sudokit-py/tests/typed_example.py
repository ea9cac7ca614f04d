"""Every function of `sudokit`, used as a typed program would: `mypy --strict` checks this file
against the package's annotations and the compiled module's stub (`_sudokit.pyi`), and
running it checks that the types told are the types returned."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Optional, Union

import sudokit
from sudokit import Error, Explanation, Generated, Hint, Rating, Step, Transform

PUZZLE = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."


def puzzles() -> Iterator[str]:
    yield PUZZLE
    yield "12x"


class Bar:
    def __init__(self) -> None:
        self.done = 0

    def update(self, n: int) -> None:
        self.done += n


def main() -> None:
    solution: Optional[str] = sudokit.solve(PUZZLE)
    assert solution is not None
    number: int = sudokit.count(PUZZLE, limit=2)
    found: list[str] = sudokit.solutions(PUZZLE, 2)
    rating: Rating = sudokit.rate(PUZZLE, max_level=5)
    er: float = rating.er
    form, transform = sudokit.canon(PUZZLE)
    rows: str = transform.rows
    same: Optional[Transform] = sudokit.equivalent(PUZZLE, form)
    solve: Explanation = sudokit.explain(PUZZLE, techniques="all")
    first: Step = solve[0]
    texts: list[str] = [step.text for step in solve]
    told: Hint = sudokit.hint(PUZZLE, level=3, techniques="all")
    step: Optional[Step] = told.step
    made: Generated = sudokit.generate(seed=1, index=0, symmetry="rot180", level="easy")
    bar = Bar()
    solved: list[Union[str, None, Error]] = sudokit.solve_many(puzzles(), progress=bar)
    rated: list[Union[Rating, Error]] = sudokit.rate_many([PUZZLE], progress=False, max_level=5)
    forms: list[Union[tuple[str, Transform], Error]] = sudokit.canon_many(iter([PUZZLE]))
    explained: list[Union[Explanation, Error]] = sudokit.explain_many([PUZZLE], techniques="all")
    lines: list[str] = sudokit.rate_lines([PUZZLE + " Inkala 2012"])
    ers = [r.er for r in rated if isinstance(r, Rating)]
    errors = [r.error for r in solved if isinstance(r, Error)]
    record: dict[str, object] = rating.to_dict()
    assert number == 1 and found == [solution] and er == 10.7 and len(rows) == 9
    assert same is not None and first.step == 1 and texts and step is not None
    assert made.level == "easy" and bar.done == 2 and ers == [10.7] and len(errors) == 1
    assert len(forms) == len(explained) == 1 and lines[0].endswith("Inkala 2012")
    assert record["er"] == "10.7"


if __name__ == "__main__":
    main()
