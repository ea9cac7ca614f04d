"""The Python package end to end: every function, its errors, the answers' classes against the
CLI's JSON records, and the batch functions' order, error values, inputs and progress, checked
against the CLI (`$SUDOKIT_BIN`) on samples of the shared data."""

import doctest
import json
import os
import subprocess
import sys

import pytest

import sudokit
import sudokit._records

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
SOLUTION = "812753649943682175675491283154237896369845721287169534521974368438526917796318452"
XWING = "....2.65.6.2.14...4....8.2..71......83.....16......78..6.5....3...14.5.8.84.9...."
XY_WING = "16.87.34.28.46.7.147..516.89421358678569274137316489..697.1.584518794236324586179"
MULTIPLE = "..........." + INKALA[11:]
ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "..")
DATA = os.path.join(ROOT, "data")
BINARY = os.environ.get("SUDOKIT_BIN", os.path.join(ROOT, "target", "debug", "sudokit"))


def cli(*args, stdin=None, statuses=(0, 1)):
    """The CLI's standard output for `args`, with `stdin` as input; its exit status one of
    `statuses` (1: some puzzle not unique; 2: some input unreadable)."""
    assert os.path.exists(BINARY), f"build the CLI first (cargo build): {BINARY}"
    done = subprocess.run(
        [BINARY, *args], input=stdin, capture_output=True, text=True, check=False
    )
    assert done.returncode in statuses, done.stderr
    return done.stdout


def cli_records(command, puzzles, *options):
    """`sudokit COMMAND --format json` on `puzzles`: each record without its place."""
    out = cli(command, "--format", "json", *options, stdin="\n".join(puzzles) + "\n")
    records = [json.loads(line) for line in out.splitlines()]
    for record in records:
        for place in ("file", "line", "trailing"):
            record.pop(place)
    return records


def sample(name, every=1, limit=None):
    """Puzzle lines of data file `name`: every `every`th, at most `limit`."""
    with open(os.path.join(DATA, name)) as data:
        lines = [line.split()[0] for line in data if len(line) >= 81 and line[0] != "#"]
    return lines[::every][:limit]


def test_solve_count_and_solutions():
    assert sudokit.solve(INKALA) == SOLUTION
    assert sudokit.count(INKALA) == 1
    assert sudokit.count(MULTIPLE, limit=5) == 5
    found = sudokit.solutions(MULTIPLE, 3)
    assert len(found) == 3 and len(set(found)) == 3
    givens = [(i, c) for i, c in enumerate(MULTIPLE) if c != "."]
    assert all(s[i] == c for s in found for i, c in givens)
    with pytest.raises(ValueError, match="digit 1 twice in row 1"):
        sudokit.solve("11" + "." * 79)


def test_rate_is_sudoku_explainers_and_its_record_the_clis():
    rating = sudokit.rate(INKALA)
    assert isinstance(rating, sudokit.Rating)
    assert (rating.er, rating.ep, rating.ed) == (10.7, 10.7, 9.7)
    assert rating.level == "diabolical" and rating.complete
    assert rating.to_dict() == cli_records("rate", [INKALA])[0]
    assert rating.line() == cli("rate", INKALA).rstrip("\n")
    capped = sudokit.rate(INKALA, max_level=1)
    assert not capped.complete and capped.er <= rating.er
    assert capped.line().split()[1] == cli("rate", "--max-level", "1", INKALA).split()[1]
    with pytest.raises(ValueError, match="more than one solution"):
        sudokit.rate(MULTIPLE)


def test_canon_and_equivalence():
    form, transform = sudokit.canon(INKALA)
    assert isinstance(transform, sudokit.Transform)
    record = cli_records("canon", [INKALA])[0]
    assert form == record["canonical"] and transform.to_dict() == record["transform"]
    moved = INKALA[27:54] + INKALA[:27] + INKALA[54:]
    assert sudokit.canon(moved)[0] == form
    assert sudokit.equivalent(INKALA, moved) == sudokit.Transform(
        False, "456123789", "123456789", "123456789"
    )
    assert sudokit.equivalent(INKALA, XWING) is None


def test_explain_steps_are_the_clis():
    solve = sudokit.explain(XY_WING)
    assert isinstance(solve, sudokit.Explanation) and isinstance(solve[0], sudokit.Step)
    assert solve.solved and solve.hardest == "XY-Wing" and len(solve) == 14
    assert sum(solve.techniques.values()) == len(solve) == len(list(solve))
    record = cli_records("explain", [XY_WING])[0]
    assert solve.to_dict() == record
    assert [step.to_dict() for step in solve] == record["steps"]
    assert solve[0].links and solve[0].links[0].start.digit == 9
    stalled = sudokit.explain(XWING, techniques="singles")
    assert not stalled.solved and stalled.solution is None and stalled.remaining
    assert stalled.to_dict() == cli_records("explain", [XWING], "--techniques", "singles")[0]
    with pytest.raises(ValueError, match="did you mean x-wing"):
        sudokit.explain(XWING, techniques="x-wng")
    with pytest.raises(ValueError, match="multiple solutions"):
        sudokit.explain(MULTIPLE)


def test_hint_at_every_level():
    assert sudokit.hint(XWING).hint == "Look for a Hidden Single."
    third = sudokit.hint(XWING, level=3)
    assert third.step is not None and third.step.text == "Hidden Single: r1c3=8 in box 1"
    for level in (1, 2, 3):
        answer = sudokit.hint(XY_WING, level=level)
        assert answer.to_dict() == cli_records("hint", [XY_WING], "--level", str(level))[0]
    assert sudokit.hint(SOLUTION).error == "already solved"
    assert sudokit.hint(XWING, techniques="full-house").error == "no technique in use applies here"
    with pytest.raises(ValueError, match="1, 2 or 3"):
        sudokit.hint(XWING, level=4)
    with pytest.raises(ValueError, match="multiple solutions"):
        sudokit.hint(MULTIPLE)


def test_generate_is_the_clis_run():
    made = sudokit.generate(seed=3, index=2, symmetry="rot180", level="hard")
    assert made == sudokit.generate(seed=3, index=2, symmetry="rot180", level="hard")
    assert sudokit.count(made.puzzle) == 1 and made.level == "hard"
    assert made.er is not None and made.er == sudokit.rate(made.puzzle).er
    out = cli("generate", "-n", "3", "--seed", "3", "--symmetry", "rot180", "--level", "hard",
              "--format", "json")
    assert made.to_dict() == json.loads(out.splitlines()[2])
    with pytest.raises(ValueError, match="unknown symmetry"):
        sudokit.generate(symmetry="spiral")
    with pytest.raises(ValueError, match="unknown level"):
        sudokit.generate(level="impossible")


def test_every_blank_and_form_reads_as_the_cli_reads_it():
    """Plain lines take a quicker road than other forms; both must give the same puzzles."""
    drawn = "\n".join(INKALA[r * 9:r * 9 + 9] for r in range(9))
    for blank in "0_-*":
        assert sudokit.solve(INKALA.replace(".", blank)) == SOLUTION
    forms = [INKALA, INKALA.replace(".", "0"), drawn, INKALA + " trailing text", INKALA + "\n"]
    assert sudokit.canon_many(forms) == [sudokit.canon(INKALA)] * len(forms)
    clash = "1" + INKALA[1:8] + "1" + INKALA[9:]
    assert sudokit.solve_many([clash])[0].error == "line 1, column 9: digit 1 twice in row 1: r1c1 and r1c9"


def test_bad_puzzles_raise_with_the_position():
    with pytest.raises(ValueError, match=r"line 1, column 3: bad character 'x'"):
        sudokit.solve("12x")
    with pytest.raises(ValueError, match=r"line 2, column 1"):
        sudokit.canon(INKALA + "\n" + XWING)
    with pytest.raises(TypeError):
        sudokit.solve(None)  # type: ignore[arg-type]


def test_batch_functions_keep_order_and_put_errors_in_place():
    puzzles = [INKALA, "12x", XWING, MULTIPLE, float("nan")]
    solved = sudokit.solve_many(puzzles)
    assert solved[0] == SOLUTION and solved[2] == sudokit.solve(XWING)
    assert solved[3] == sudokit.solve(MULTIPLE)
    assert solved[1] == sudokit.Error(None, sudokit.solve_many(["12x"])[0].error)
    assert solved[1].error.startswith("line 1, column 3: bad character 'x'")
    assert solved[4] == sudokit.Error(None, "expected a puzzle as str, got float")
    rated = sudokit.rate_many(puzzles)
    assert rated[0] == sudokit.rate(INKALA) and rated[2] == sudokit.rate(XWING)
    assert rated[3] == sudokit.Error(MULTIPLE, "the puzzle has more than one solution")
    cli_error = json.loads(cli("rate", "--format", "json", MULTIPLE))
    assert rated[3].to_dict().keys() == cli_error.keys() - {"file", "line", "trailing"}
    assert cli_error["error"].endswith(rated[3].error)
    assert [type(r) for r in rated] == [sudokit.Rating, sudokit.Error] * 2 + [sudokit.Error]
    forms = sudokit.canon_many(puzzles)
    assert forms[0] == sudokit.canon(INKALA) and forms[2] == sudokit.canon(XWING)
    assert forms[3] == sudokit.canon(MULTIPLE)
    explained = sudokit.explain_many([XY_WING, "x", MULTIPLE], techniques="all")
    assert explained[0] == sudokit.explain(XY_WING)
    assert isinstance(explained[1], sudokit.Error) and explained[2].error == "multiple solutions"
    assert sudokit.solve_many([]) == []
    with pytest.raises(TypeError, match="one str"):
        sudokit.rate_many(INKALA)


def test_batch_functions_take_any_iterable():
    import numpy as np
    import pandas as pd
    puzzles = sample("puzzles3_magictour_top1465", limit=40) + ["12x"]
    expected = sudokit.canon_many(puzzles)
    assert sudokit.canon_many(p for p in puzzles) == expected
    assert sudokit.canon_many(pd.Series(puzzles)) == expected
    assert sudokit.canon_many(np.array(puzzles)) == expected
    assert sudokit.solve_many(np.array(puzzles)) == sudokit.solve_many(iter(puzzles))
    with_gap = pd.Series(puzzles[:2] + [None, np.nan])
    assert [type(r) for r in sudokit.solve_many(with_gap)] == [str, str, sudokit.Error, sudokit.Error]
    frame = pd.DataFrame({"puzzle": puzzles[:5]})
    frame["er"] = [r.er for r in sudokit.rate_many(frame["puzzle"])]
    assert list(frame["er"]) == [sudokit.rate(p).er for p in puzzles[:5]]


def test_chunks_and_progress_change_nothing(monkeypatch):
    puzzles = sample("puzzles2_17_clue", every=97)[:300] + ["bad"] + [XWING] * 3
    expected = sudokit.rate_many(puzzles)
    told = []
    for chunk in (1, 7, 64):
        monkeypatch.setattr(sudokit, "_CHUNK", chunk)
        assert sudokit.rate_many(puzzles) == expected
        told.clear()
        assert sudokit.solve_many(puzzles, progress=Recorder(told)) == sudokit.solve_many(puzzles)
        assert sum(told) == len(puzzles) and all(n > 0 for n in told)
    monkeypatch.setattr(sudokit, "_CHUNK", 50)
    told.clear()
    assert sudokit.rate_many(iter(puzzles), progress=Recorder(told)) == expected
    assert sum(told) == len(puzzles) and len(told) >= len(puzzles) // 50


def test_progress_true_draws_a_tqdm_bar_or_counts_without_it(monkeypatch, capsys):
    import tqdm  # noqa: F401  (the bar drawn below is tqdm's)
    puzzles = sample("puzzles7_serg_benchmark", limit=500)
    assert sudokit.solve_many(puzzles, progress=True) == sudokit.solve_many(puzzles)
    assert "500/500" in capsys.readouterr().err
    monkeypatch.setitem(sys.modules, "tqdm", None)
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    assert sudokit.canon_many(puzzles, progress=True) == sudokit.canon_many(puzzles)
    err = capsys.readouterr().err
    assert "tqdm is not installed" in err and "500/500 puzzles" in err


def test_a_failing_progress_bar_stops_the_batch():
    class Broken:
        def update(self, n):
            raise RuntimeError("the bar broke")

    slow = sample("puzzles6_forum_hardest_1106", limit=40)
    with pytest.raises(RuntimeError, match="the bar broke"):
        sudokit.rate_many(slow, progress=Broken())


def test_batch_answers_equal_the_clis():
    """Each batch function on samples of the shared data equals the CLI on the same puzzles."""
    rated = sample("se_rated_calibration.tsv", limit=40)
    assert [r.to_dict() for r in sudokit.rate_many(rated)] == cli_records("rate", rated)
    seventeen = sample("puzzles2_17_clue", every=100)
    assert sudokit.solve_many(seventeen) == cli("solve", stdin="\n".join(seventeen)).split()
    hardest = sample("puzzles5_forum_hardest_1905_11+", every=100)
    forms = sudokit.canon_many(hardest)
    for (form, transform), record in zip(forms, cli_records("canon", hardest), strict=True):
        assert (form, transform.to_dict()) == (record["canonical"], record["transform"])
    top = sample("puzzles3_magictour_top1465", every=100)
    explained = [e.to_dict() for e in sudokit.explain_many(top)]
    assert explained == cli_records("explain", top)


def test_rate_lines_writes_the_clis_lines():
    path = os.path.join(DATA, "se_rated_calibration.tsv")
    with open(path) as data:
        lines = data.readlines()
    ours = sudokit.rate_lines(lines)
    theirs = cli("rate", path, statuses=(2,)).splitlines()
    assert len(ours) == len(theirs) == 161
    assert ours[1:] == theirs[1:]
    # The header line is no puzzle: the same error, named by its line in the file only there.
    assert theirs[0].replace(f"{path}:2:1", "line 1, column 1") == ours[0]


def test_the_dask_recipe_equals_the_cli(tmp_path):
    """The guide's recipe: `read_text(...).map_partitions(rate_lines)` on two worker
    processes writes what `sudokit rate` writes for the file, and `map_partitions(rate_many)`
    gives its records."""
    import dask.bag
    from distributed import Client, LocalCluster

    path = os.path.join(DATA, "se_rated_calibration.tsv")
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None)
    with cluster, Client(cluster):
        bag = dask.bag.read_text(path, blocksize=4096)
        assert bag.npartitions >= 3
        rated = bag.map_partitions(sudokit.rate_lines)
        rated.to_textfiles(str(tmp_path / "*"), name_function="{:05d}.txt".format, last_endline=True)
        lines = rated.compute()
        ratings = bag.map_partitions(sudokit.rate_many).compute()
    theirs = cli("rate", path, statuses=(2,)).splitlines()
    assert lines[1:] == theirs[1:] and len(lines) == 161
    files = sorted(tmp_path.iterdir())
    assert len(files) == bag.npartitions
    assert "".join(f.read_text() for f in files).splitlines() == lines
    assert theirs[0].replace(f"{path}:2:1", "line 1, column 1") == lines[0]
    # rate_many sees every line, the comment too: errors in place of both lines that hold no puzzle.
    records = [r.to_dict() for r in ratings if isinstance(r, sudokit.Rating)]
    assert [type(r) for r in ratings[:3]] == [sudokit.Error, sudokit.Error, sudokit.Rating]
    assert records == cli_records("rate", sample("se_rated_calibration.tsv"))


def test_docstring_examples():
    for module in (sudokit, sudokit._records):
        failed, tried = doctest.testmod(module)
        assert failed == 0 and tried >= 10, module


class Recorder:
    """A progress bar that records each update."""

    def __init__(self, told):
        self.told = told

    def update(self, n):
        self.told.append(n)
