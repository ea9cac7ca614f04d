"""The Python package end to end: every function, its errors, and the batch functions' order
and error records, checked against the library's own answers and the CLI's."""

import json
import os
import subprocess

import pytest

import sudokit

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
SOLUTION = "812753649943682175675491283154237896369845721287169534521974368438526917796318452"
XWING = "....2.65.6.2.14...4....8.2..71......83.....16......78..6.5....3...14.5.8.84.9...."
MULTIPLE = "..........." + INKALA[11:]
ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "..")


def test_solve_count_and_solutions():
    assert sudokit.solve(INKALA) == SOLUTION
    assert sudokit.count(INKALA) == 1
    assert sudokit.count(MULTIPLE, limit=5) == 5
    found = sudokit.solutions(MULTIPLE, 3)
    assert len(found) == 3 and len(set(found)) == 3
    with pytest.raises(ValueError, match="digit 1 twice in row 1"):
        sudokit.solve("11" + "." * 79)


def test_rate_is_sudoku_explainers():
    rating = sudokit.rate(INKALA)
    assert (rating["er"], rating["ep"], rating["ed"]) == ("10.7", "10.7", "9.7")
    assert rating["level"] == "diabolical"
    with pytest.raises(ValueError, match="more than one solution"):
        sudokit.rate(MULTIPLE)


def test_canon_and_equivalence():
    record = sudokit.canon(INKALA)
    assert len(record["canonical"]) == 81
    moved = INKALA[27:54] + INKALA[:27] + INKALA[54:]
    assert sudokit.canon(moved)["canonical"] == record["canonical"]
    assert sudokit.equivalent(INKALA, moved)["transpose"] is False
    assert sudokit.equivalent(INKALA, XWING) is None


def test_explain_and_hint():
    record = sudokit.explain(XWING)
    assert record["solved"] and record["hardest"] == "X-Wing"
    assert sum(record["techniques"].values()) == len(record["steps"])
    assert sudokit.hint(XWING)["hint"] == "Look for a Hidden Single."
    assert sudokit.hint(XWING, level=3)["step"]["text"] == "Hidden Single: r1c3=8 in box 1"
    assert sudokit.explain(XWING, techniques="singles")["solved"] is False
    with pytest.raises(ValueError, match="did you mean x-wing"):
        sudokit.explain(XWING, techniques="x-wng")
    with pytest.raises(ValueError, match="1, 2 or 3"):
        sudokit.hint(XWING, level=4)


def test_generate_is_reproducible():
    made = sudokit.generate(seed=3, index=2, symmetry="rot180", level="hard")
    assert made == sudokit.generate(seed=3, index=2, symmetry="rot180", level="hard")
    assert sudokit.count(made["puzzle"]) == 1 and made["level"] == "hard"
    with pytest.raises(ValueError, match="unknown symmetry"):
        sudokit.generate(symmetry="spiral")


def test_bad_puzzles_raise_with_the_position():
    with pytest.raises(ValueError, match=r"line 1, column 3: bad character 'x'"):
        sudokit.solve("12x")


def test_batch_functions_keep_order_and_put_errors_in_place():
    puzzles = [INKALA, "12x", XWING, MULTIPLE]
    solved = sudokit.solve_many(puzzles)
    assert [r.get("status") for r in solved] == ["unique", None, "unique", "multiple solutions"]
    assert solved[1]["error"].startswith("line 1, column 3")
    rated = sudokit.rate_many(puzzles)
    assert rated[0]["er"] == "10.7" and "error" in rated[1] and "error" in rated[3]
    forms = sudokit.canon_many(puzzles)
    assert forms[0] == sudokit.canon(INKALA)
    explained = sudokit.explain_many([XWING, "x"])
    assert explained[0]["hardest"] == "X-Wing" and "error" in explained[1]


def test_batch_answers_equal_the_clis():
    """rate_many on a sample of the calibration list equals `sudokit rate --format json`."""
    lines = []
    with open(os.path.join(ROOT, "data", "se_rated_calibration.tsv")) as data:
        for line in data:
            if len(line) >= 81 and not line.startswith("#"):
                lines.append(line.split()[0][:81])
    sample = lines[:20]
    binary = os.environ.get("SUDOKIT_BIN", os.path.join(ROOT, "target", "debug", "sudokit"))
    assert os.path.exists(binary), f"build the CLI first (cargo build): {binary}"
    cli = subprocess.run(
        [binary, "rate", "--format", "json"], input="\n".join(sample) + "\n",
        capture_output=True, text=True, check=True,
    ).stdout.splitlines()
    for ours, theirs in zip(sudokit.rate_many(sample), cli):
        record = json.loads(theirs)
        for place in ("file", "line", "trailing"):
            record.pop(place)
        assert ours == record
