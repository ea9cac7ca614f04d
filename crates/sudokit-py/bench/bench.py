"""The Python package measured: run by hand, not in CI. It prints Markdown tables for
docs/benchmarks.md ("Python").

It runs in an environment of its own, because its peers, hodoku-py and py-sudoku from PyPI,
are what it measures against, not what sudokit needs:

    python3 -m venv /tmp/sudokit-bench
    /tmp/sudokit-bench/bin/pip install maturin -r crates/sudokit-py/bench/requirements.txt
    /tmp/sudokit-bench/bin/maturin build --release -m crates/sudokit-py/Cargo.toml -o /tmp/wheels
    /tmp/sudokit-bench/bin/pip install /tmp/wheels/sudokit-*.whl
    cargo build --release -p sudokit-cli
    /tmp/sudokit-bench/bin/python crates/sudokit-py/bench/bench.py --cli target/release/sudokit

Sections (all by default): `overhead` (per call, one thread), `batch` (the *_many functions
against the CLI on the same files and cores), `peers` (hodoku-py and py-sudoku on the same
puzzles). Puzzles come from data/ (SUDOKIT_DATA names another folder).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable

import sudokit

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
DATA = os.environ.get("SUDOKIT_DATA", os.path.join(ROOT, "data"))


def puzzles(name: str, every: int = 1, limit: int | None = None) -> list[str]:
    """The puzzle lines of data file `name`: every `every`th, at most `limit`."""
    with open(os.path.join(DATA, name)) as data:
        lines = [line.split()[0] for line in data if len(line) >= 81 and line[0] != "#"]
    return lines[::every][:limit]


def best(rounds: int, work: Callable[[], Any]) -> float:
    """The least wall time of `rounds` runs of `work`, in seconds: the run least disturbed
    by the machine's other work."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def overhead() -> None:
    """Per call against in a batch, both on one thread: the difference is what a call costs
    beyond the work (argument conversion, parsing, the answer's objects)."""
    if os.environ.get("RAYON_NUM_THREADS") != "1":
        # Rating works on every core within one puzzle: pin both sides to one thread.
        env = dict(os.environ, RAYON_NUM_THREADS="1")
        subprocess.run([sys.executable, __file__, "overhead"], env=env, check=True)
        return
    easy_solve = puzzles("puzzles7_serg_benchmark", limit=2000)
    seventeen = puzzles("puzzles2_17_clue", limit=3000)
    easy_rate = [
        r.puzzle for r in sudokit.rate_many(seventeen)
        if isinstance(r, sudokit.Rating) and r.level == "easy"
    ][:500]
    print(f"\n### Per-call overhead (one thread; {len(easy_solve)} puzzles of "
          f"puzzles7_serg_benchmark, {len(easy_rate)} rated easy of puzzles2_17_clue)\n")
    print("| call | per call | in a batch, per puzzle | overhead |")
    print("|---|---:|---:|---:|")
    cases: list[tuple[str, list[str], Callable[[str], Any], Callable[[list[str]], Any]]] = [
        ("`count(p, limit=0)` (parse only)", easy_solve, lambda p: sudokit.count(p, 0), None),
        ("`solve(p)`", easy_solve, sudokit.solve, sudokit.solve_many),
        ("`rate(p)`", easy_rate, sudokit.rate, sudokit.rate_many),
    ]
    for name, sample, one, many in cases:
        per_call = best(5, lambda: [one(p) for p in sample]) / len(sample)
        if many is None:
            print(f"| {name} | {per_call * 1e6:.2f} µs | | |")
            continue
        per_item = best(5, lambda: many(sample)) / len(sample)
        print(f"| {name} | {per_call * 1e6:.2f} µs | {per_item * 1e6:.2f} µs | "
              f"{(per_call - per_item) * 1e6:.2f} µs |")


def batch(cli: str) -> None:
    """Each *_many function against the CLI on the same file and cores, both from the file to
    all answers (the CLI writing to /dev/null), best of a few alternated runs. `solve_many`
    gives the first solution, as `sudokit solve --count=1` searches; plain `sudokit solve`
    also proves each solution unique, which is more work."""
    print(f"\n### Batch throughput against the CLI ({os.cpu_count()} cores, both sides)\n")
    print("| Python | CLI | file | puzzles | CLI | Python | Python/CLI |")
    print("|---|---|---|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as folder:
        tenth = os.path.join(folder, "puzzles2_17_clue, every 10th")
        with open(tenth, "w") as out:
            out.write("\n".join(puzzles("puzzles2_17_clue", every=10)) + "\n")
        seventeen = os.path.join(DATA, "puzzles2_17_clue")
        serg = os.path.join(DATA, "puzzles7_serg_benchmark")
        top = os.path.join(DATA, "puzzles3_magictour_top1465")
        cases = [
            (sudokit.solve_many, ["solve", "--count=1"], seventeen, 7),
            (sudokit.solve_many, ["solve"], seventeen, 7),
            (sudokit.solve_many, ["solve", "--count=1"], serg, 7),
            (sudokit.rate_many, ["rate"], tenth, 3),
            (sudokit.rate_many, ["rate"], top, 2),
        ]
        for many, args, path, rounds in cases:

            def python() -> list[Any]:
                with open(path) as data:
                    return many(data.read().splitlines())

            def command() -> None:
                with open(os.devnull, "w") as sink:
                    subprocess.run([cli, *args, path], stdout=sink, check=False)

            answers = python()
            check(answers, cli, args[0], path)
            ours = theirs = float("inf")
            for _ in range(rounds):  # alternated, so that both see the same machine
                ours = min(ours, best(1, python))
                theirs = min(theirs, best(1, command))
            n = len(answers)
            print(f"| `{many.__name__}` | `sudokit {' '.join(args)}` | "
                  f"{os.path.basename(path)} | {n:,} | {n / theirs:,.0f}/s | {n / ours:,.0f}/s | "
                  f"{ours / theirs:.3f} |")


def check(answers: list[Any], cli: str, command: str, path: str) -> None:
    """The Python answers are the CLI's: a benchmark of wrong answers measures nothing. (A
    puzzle with several solutions is `FIRST multiple solutions` on the CLI's line.)"""
    done = subprocess.run([cli, command, path], capture_output=True, text=True, check=False)
    assert done.returncode in (0, 1), done.stderr
    if command == "solve":
        ours = [a or "no solution" for a in answers]
        theirs = [line if line == "no solution" else line[:81] for line in done.stdout.splitlines()]
    else:
        ours, theirs = [a.line() for a in answers], done.stdout.splitlines()
    assert ours == theirs, f"{command} on {path}: the answers differ from the CLI's"


def peers() -> None:
    """sudokit next to hodoku-py and py-sudoku, one puzzle at a time on one thread each."""
    from hodoku import Solver
    from hodoku.generator.generator import SudokuGenerator
    from sudoku import Sudoku

    generator = SudokuGenerator()
    human = Solver()

    def hodoku_solve(p: str) -> str:
        generator.solve_string(p.replace(".", "0"))  # counts up to 2, as sudokit.count does
        return generator.get_solution_as_string()

    def py_sudoku_solve(p: str) -> str:
        rows = [[int(c) if c not in ".0" else None for c in p[r * 9:r * 9 + 9]] for r in range(9)]
        solved = Sudoku(3, 3, board=rows).solve()
        return "".join(str(c) for row in solved.board for c in row)

    def hodoku_steps(p: str) -> str:
        result = human.solve(p.replace(".", "0"))
        assert result.solved
        return result.solution

    def sudokit_steps(p: str) -> str:
        solve = sudokit.explain(p)
        assert solve.solved and solve.solution is not None
        return solve.solution

    exact = [("puzzles3_magictour_top1465", 15), ("puzzles2_17_clue", 500)]
    steps = [("puzzles2_17_clue", 2500), ("puzzles3_magictour_top1465", 150)]
    print("\n### Side by side with hodoku-py and py-sudoku (one puzzle at a time)\n")
    print("| work | puzzles | sudokit | hodoku-py | py-sudoku | hodoku-py/sudokit | py-sudoku/sudokit |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for name, every in exact:
        sample = puzzles(name, every=every)
        ours = timed(sample, lambda p: sudokit.solve(p) or "")
        counted = timed(sample, lambda p: (sudokit.count(p), sudokit.solve(p) or "")[1])
        hodoku = timed(sample, hodoku_solve)
        pysudoku = timed(sample, py_sudoku_solve)
        assert ours[1] == hodoku[1] == pysudoku[1] == counted[1], name
        print(f"| exact solve (sudokit: `count` + `solve`, as hodoku-py counts to 2) | {name}, "
              f"every {every}th ({len(sample)}) | {ms(counted[0])} | {ms(hodoku[0])} | "
              f"{ms(pysudoku[0])} | {mean(hodoku[0]) / mean(counted[0]):,.0f} | "
              f"{mean(pysudoku[0]) / mean(counted[0]):,.0f} |")
        print(f"| exact solve (sudokit: `solve`, first solution) | {name}, every {every}th "
              f"({len(sample)}) | {ms(ours[0])} | | | {mean(hodoku[0]) / mean(ours[0]):,.0f} | "
              f"{mean(pysudoku[0]) / mean(ours[0]):,.0f} |")
    for name, every in steps:
        sample = puzzles(name, every=every)
        ours = timed(sample, sudokit_steps)
        hodoku = timed(sample, hodoku_steps)
        assert ours[1] == hodoku[1], name
        print(f"| step by step (`explain`; hodoku-py `Solver().solve`) | {name}, every {every}th "
              f"({len(sample)}) | {ms(ours[0])} | {ms(hodoku[0])} | n/a | "
              f"{mean(hodoku[0]) / mean(ours[0]):,.0f} | |")


def timed(sample: list[str], solve: Callable[[str], str]) -> tuple[list[float], list[str]]:
    """Each puzzle's time and answer."""
    times, answers = [], []
    for p in sample:
        start = time.perf_counter()
        answers.append(solve(p))
        times.append(time.perf_counter() - start)
    return times, answers


def mean(times: list[float]) -> float:
    return statistics.fmean(times)


def ms(times: list[float]) -> str:
    """Mean and slowest, in milliseconds."""
    return f"{mean(times) * 1e3:.3g} ms (max {max(times) * 1e3:.3g})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sections", nargs="*", default=["overhead", "batch", "peers"])
    parser.add_argument("--cli", default=os.path.join(ROOT, "target", "release", "sudokit"))
    args = parser.parse_args()
    for section in args.sections:
        if section == "overhead":
            overhead()
        elif section == "batch":
            batch(args.cli)
        elif section == "peers":
            peers()
        else:
            parser.error(f"unknown section {section}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
