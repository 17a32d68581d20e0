"""The documentation's own Sphinx extensions (docs/_ext), without running Sphinx."""

import sys
from pathlib import Path, PurePosixPath

import pandas as pd
import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
sys.path.insert(0, str(DOCS / "_ext"))

import optional_pages  # noqa: E402
import plain_docstrings  # noqa: E402
import report_tables  # noqa: E402


@pytest.mark.parametrize("text, expected", [
    ("sets labels_ and medoids_.", r"sets labels\_ and medoids\_."),
    ("n_iter_ : int", r"n_iter\_ : int"),
    ("(|A| + |B|)", r"(\|A\| + \|B\|)"),
    ("||phi(x) - a||^2", r"\|\|phi(x) - a\|\|^2"),
    ("``labels_`` and `x|y` stay", "``labels_`` and `x|y` stay"),
    ("sum_ij a_i a_j", "sum_ij a_i a_j"),
])
def test_plain_text_conventions_are_escaped_outside_code(text, expected):
    assert plain_docstrings.escape_text(text) == expected


def test_math_blocks_are_left_alone():
    lines = ["Loss |A|.", "", ".. math:: |Y_i| + x_", "    \\frac{|B|}{n}", "", "After |C|."]
    plain_docstrings.escape_docstring(lines)
    assert lines == ["Loss \\|A\\|.", "", ".. math:: |Y_i| + x_", "    \\frac{|B|}{n}", "",
                     "After \\|C\\|."]


def test_doctest_blocks_are_left_alone():
    lines = ["Sets labels_.", "", ">>> model.labels_", "[0, 1]", "", "and medoids_."]
    plain_docstrings.escape_docstring(lines)
    assert lines == [r"Sets labels\_.", "", ">>> model.labels_", "[0, 1]", "",
                     r"and medoids\_."]


def test_missing_optional_pages_leave_the_toctree_and_lose_their_links(tmp_path):
    (tmp_path / "lab.md").write_text("# The lab\n")
    index = "```{toctree}\ngetting-started\nlab\nperformance\n```\n"
    assert optional_pages.drop_missing_pages(index, tmp_path) == (
        "```{toctree}\ngetting-started\nlab\n```\n")
    text = "See [](../performance.md), [the lab](../lab.md) and [speed](../performance.md)."
    assert optional_pages.unlink_missing_pages(text, tmp_path, PurePosixPath("guide")) == (
        "See performance, [the lab](../lab.md) and speed.")


def test_includes_of_missing_files_become_a_note(tmp_path):
    (tmp_path / "a_verdicts.md").write_text("verdicts\n")
    page = "```{include} a_verdicts.md\n```\n\n```{include} b_verdicts.md\n```\n"
    out = optional_pages.drop_missing_includes(page, tmp_path)
    assert out.startswith("```{include} a_verdicts.md\n```\n")
    assert "```{include} b_verdicts.md" not in out
    assert "`b_verdicts.md` does not exist" in out


def test_included_headings_nest_under_the_pages_sections(tmp_path):
    (tmp_path / "top.md").write_text("# Title\n\n## Part\n\n```\n# a comment\n```\n")
    (tmp_path / "deep.md").write_text("### Already nested\n")
    page = "```{include} top.md\n```\n```{include} deep.md\n```\n"
    assert optional_pages.drop_missing_includes(page, tmp_path) == (
        "```{include} top.md\n:heading-offset: 2\n```\n```{include} deep.md\n```\n")


def test_verdict_counts_read_the_verdict_column(tmp_path):
    path = tmp_path / "claims.csv"
    pd.DataFrame({"claim": list("abcde"),
                  "verdict": ["supported", "inconclusive", "Inconclusive", "contradicted",
                              "inconclusive"]}).to_csv(path, index=False)
    assert report_tables.verdict_counts(path) == {
        "supported": 1, "contradicted": 1, "inconclusive": 3, "exact checks hold": 0,
        "exact checks fail": 0}


def test_exact_checks_are_counted_apart(tmp_path):
    path = tmp_path / "claims.csv"
    exact = "exact check (no sampling): worst of 2 cases"
    pd.DataFrame({"claim": list("abcd"), "test": ["wilcoxon", exact, exact, "paired t"],
                  "verdict": ["supported", "supported", "contradicted", "supported"]}
                 ).to_csv(path, index=False)
    assert report_tables.verdict_counts(path) == {
        "supported": 2, "contradicted": 0, "inconclusive": 0, "exact checks hold": 1,
        "exact checks fail": 1}


def test_claims_without_verdicts_have_no_counts(tmp_path):
    path = tmp_path / "claims.csv"
    pd.DataFrame({"claim": ["a"], "holds": [True]}).to_csv(path, index=False)
    assert report_tables.verdict_counts(path) == {
        "supported": None, "contradicted": None, "inconclusive": None,
        "exact checks hold": None, "exact checks fail": None}


def test_claims_summary_has_one_row_per_paper_with_claims(tmp_path):
    (tmp_path / "intH").mkdir()
    pd.DataFrame({"claim": ["a", "b"], "verdict": ["supported", "contradicted"]}).to_csv(
        tmp_path / "intH" / "claims.csv", index=False)
    summary = report_tables.claims_summary(tmp_path)
    assert len(summary) == 1
    row = summary.iloc[0]
    assert "(intH)" in row["paper"]
    assert (row["supported"], row["contradicted"], row["inconclusive"],
            row["claims tested"]) == (1, 1, 0, 2)
    markdown = report_tables.claims_summary_markdown(tmp_path).splitlines()
    assert markdown[0] == ("| paper | supported | contradicted | inconclusive | claims tested "
                           "| exact checks hold | exact checks fail |")
    assert markdown[2].endswith("| 1 | 1 | 0 | 2 | 0 | 0 |")


def test_report_table_cells():
    assert report_tables.format_cell(0.8800000000000001) == "0.88"
    assert report_tables.format_cell(float("nan")) == ""
    assert report_tables.format_cell("a|b") == r"a\|b"
    # One partition has no spread: a dash, not a zero that reads as a measured spread.
    assert report_tables.format_cell("0.6235 ± 0.0000") == "0.6235 ± —"
    assert report_tables.format_cell("0.6235 ± 0.0012") == "0.6235 ± 0.0012"
    assert report_tables.format_cell("0.6235 ± 0.0000 (n=1)") == "0.6235 ± 0.0000 (n=1)"
    lines = report_tables.markdown_table(pd.DataFrame({"x": [1.23456], "y": ["s"]}), digits=3)
    assert lines == ["| x | y |", "|---|---|", "| 1.23 | s |"]
