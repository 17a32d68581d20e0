"""The documentation's own Sphinx extensions (docs/_ext), without running Sphinx."""

import sys
from pathlib import Path, PurePosixPath

import pandas as pd
import pytest

from tests.extras import require_extra

require_extra("docs")

DOCS = Path(__file__).resolve().parents[2] / "docs"
sys.path.insert(0, str(DOCS / "_ext"))

import api_links  # noqa: E402
import notebook_gallery  # noqa: E402
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


def test_claims_summary_leads_with_the_papers_claims_and_counts_the_projects_apart(tmp_path):
    from milab_widgets.claims import Claim, claim_row, claims_table, untested

    catalogue = (Claim("a", "A beats B everywhere", "§4", "every case", "3 sets"),
                 Claim("b", "A above 75 %", "Fig. 2", "above threshold", "1 set", margin=0.75),
                 Claim("c", "needs data", "Table 2", "every case", "2 sets"),
                 Claim("d", "ours", "—", "faster", "2 sets", origin="project"),
                 Claim("e", "A beats B on a stand-in", "§4", "every case", "1 set",
                       basis="stand-in data", basis_reason="digits for NUS-WIDE"))

    def result(effect, verdict, p):
        return {"effect": effect, "ci_low": effect - 0.01, "ci_high": effect + 0.01,
                "p_value": p, "verdict": verdict, "test": "t", "n": 5}

    rows = [claim_row(catalogue[0], result(0.05, "supported", 0.001), noise="runs"),
            claim_row(catalogue[1], {**result(0.5, "contradicted", 0.001), "null": 0.75},
                      noise="runs"),
            untested(catalogue[2], "missing"),
            claim_row(catalogue[3], {**result(2.0, "supported", 0.01), "null": 1.0},
                      noise="timings"),
            claim_row(catalogue[4], result(-0.05, "contradicted", 0.001), noise="runs")]
    (tmp_path / "intH").mkdir()
    claims_table(rows, catalogue).to_csv(tmp_path / "intH" / "claims.csv", index=False)
    (tmp_path / "CDVSE").mkdir()  # the format before the catalogue: no counts
    pd.DataFrame({"claim": ["a"], "verdict": ["supported"]}).to_csv(
        tmp_path / "CDVSE" / "claims.csv", index=False)
    summary = report_tables.claims_summary(tmp_path)
    assert len(summary) == 2
    row = summary.iloc[0]
    assert "(intH)" in row["paper"]
    assert (row["paper's claims"], row["reproduced"], row["supported"], row["contradicted"],
            row["inconclusive"], row["not tested"]) == (3, "1 of 2", 1, 1, 0, 1)
    assert row["project's checks (supported · contradicted · inconclusive)"] == "1 · 0 · 0"
    # the stand-in row counts beside the paper's claims, never in them
    assert row["beside: the paper's claims on another basis (supported · contradicted · "
               "inconclusive)"] == "0 · 1 · 0"
    markdown = report_tables.claims_summary_markdown(tmp_path).splitlines()
    assert markdown[0] == ("| paper | paper's claims | reproduced | supported | contradicted "
                           "| inconclusive | exact checks hold | exact checks fail | not tested "
                           "| beside: the paper's claims on another basis (supported · "
                           "contradicted · inconclusive) "
                           "| project's checks (supported · contradicted · inconclusive) |")
    assert markdown[2].endswith("| 3 | 1 of 2 | 1 | 1 | 0 | 0 | 0 | 1 | 0 · 1 · 0 | 1 · 0 · 0 |")
    assert markdown[3].endswith("| - | - | - | - | - | - | - | - | - | - |")


def test_report_table_cells():
    assert report_tables.format_cell(0.8800000000000001) == "0.88"
    assert report_tables.format_cell(float("nan")) == ""
    assert report_tables.format_cell(1172.4, digits=3) == "1172"  # not 1.17e+03
    assert report_tables.format_cell(999.6, digits=3) == "1000"
    assert report_tables.format_cell(2.46e-12, digits=3) == "2.46e-12"
    assert report_tables.format_cell("a|b") == r"a\|b"
    # One partition has no spread: a dash, not a zero that reads as a measured spread.
    assert report_tables.format_cell("0.6235 ± 0.0000") == "0.6235 ± —"
    assert report_tables.format_cell("0.6235 ± 0.0012") == "0.6235 ± 0.0012"
    assert report_tables.format_cell("0.6235 ± 0.0000 (n=1)") == "0.6235 ± 0.0000 (n=1)"
    lines = report_tables.markdown_table(pd.DataFrame({"x": [1.23456], "y": ["s"]}), digits=3)
    assert lines == ["| x | y |", "|---|---|", "| 1.23 | s |"]


@pytest.mark.parametrize("recorded, shown", [
    ('"output_dir = \\"/work/run-7/intH\\"\\n"', '"output_dir = \\"reports/intH\\"\\n"'),
    ('"output_path": "/home/me/out/CDVSE/CDVSE.ipynb"', '"output_path": "reports/CDVSE/CDVSE.ipynb"'),
    ('"input_path": "/tmp/wt/notebooks/MFSEF.ipynb"', '"input_path": "notebooks/MFSEF.ipynb"'),
    ('"/work/main/reports/LSkMDDM/x.png"', '"reports/LSkMDDM/x.png"'),
    ("see reports/intH/table3.png and notebooks/intH.ipynb",
     "see reports/intH/table3.png and notebooks/intH.ipynb"),
    ("https://mybinder.org/v2/gh/o/r/main?urlpath=lab/tree/notebooks/intH.ipynb",
     "https://mybinder.org/v2/gh/o/r/main?urlpath=lab/tree/notebooks/intH.ipynb"),
])
def test_gallery_notebooks_show_the_repositorys_folders_not_the_machines(recorded, shown):
    """Wherever a run wrote (any --output) and whatever checkout ran it, the gallery shows
    ``reports/<paper>`` and ``notebooks/``; relative paths and URLs are left alone."""
    assert notebook_gallery.without_machine_paths(recorded) == shown


def test_report_table_rows_are_selected_by_one_columns_value():
    frame = pd.DataFrame({"parameter": ["sigma", "zeta", "sigma"], "value": [0.1, 7.0, 1.0]})
    assert report_tables.select_rows(frame, "parameter = sigma").value.tolist() == [0.1, 1.0]
    assert report_tables.select_rows(frame, "value=7.0").parameter.tolist() == ["zeta"]
    assert report_tables.select_rows(frame, "parameter = C").empty
    for bad in ("parameter sigma", "kind = sigma"):
        with pytest.raises(ValueError, match="column = value"):
            report_tables.select_rows(frame, bad)


def test_report_table_pivot_keeps_the_files_order_and_blanks_missing_pairs():
    long = pd.DataFrame({"dataset": ["pima", "pima", "cancer", "cancer", "cancer"],
                         "value": [1.0, 0.01, 7.0, 1.0, 0.01],
                         "test": [0.6, 0.5, 0.9, 0.8, 0.7]})
    wide = report_tables.pivot_wide(long, "dataset, value, test")
    assert wide.columns.tolist() == ["dataset", "1", "0.01", "7"]
    assert wide.dataset.tolist() == ["pima", "cancer"]
    assert wide.iloc[1, 1:].tolist() == [0.8, 0.7, 0.9]
    assert report_tables.markdown_table(wide, digits=2)[2] == "| pima | 0.6 | 0.5 |  |"
    with pytest.raises(ValueError, match="index, columns, values"):
        report_tables.pivot_wide(long, "dataset, value")
    with pytest.raises(ValueError):  # two values for one (dataset, value) pair
        report_tables.pivot_wide(pd.concat([long, long]), "dataset, value, test")


def test_report_table_reads_a_json_files_records_with_nested_fields_flattened(tmp_path):
    path = tmp_path / "bench.json"
    path.write_text('{"rounds": 15, "wall": {"rows": ['
                    '{"kernel": "a", "loaded": false, "t": {"median_ms": 8.5}, "ci": [0.951, 1.0]},'
                    '{"kernel": "b", "loaded": true, "t": {"median_ms": 12.25}, "ci": [1.0, 2.5]}'
                    ']}}')
    frame = report_tables.json_records(path, "wall.rows")
    assert set(frame.columns) == {"kernel", "loaded", "t.median_ms", "ci"}
    assert report_tables.select_rows(frame, "loaded = True").kernel.tolist() == ["b"]
    shown = report_tables.pick_columns(frame, "kernel as what, t.median_ms as median ms, ci")
    assert report_tables.markdown_table(shown, digits=2) == [
        "| what | median ms | ci |", "|---|---|---|",
        "| a | 8.5 | [0.95, 1] |", "| b | 12 | [1, 2.5] |"]
    for bad in ("wall.columns", "rounds", "wall.rows.kernel", "cpu"):
        with pytest.raises(ValueError, match=":records:"):
            report_tables.json_records(path, bad)
    with pytest.raises(ValueError, match="not a column"):
        report_tables.pick_columns(frame, "kernel, median")


def test_an_api_page_with_methods_but_no_links_gets_no_empty_container():
    """A class no guide, paper or notebook names (the papers' record) gets its methods
    table alone: an empty ``container`` directive fails the -W build."""
    lines = api_links.links_lines("milab_widgets.papers.spec.Paper", "milab_widgets.papers.spec")
    assert lines[0] == ".. rubric:: Methods"
    assert "   ~Paper.citation" in lines
    linked = api_links.links_lines("milab_widgets.mil.CitationKNN", "milab_widgets.mil")
    assert linked[:2] == [".. container:: milab-api-links", ""]
    assert linked[2].startswith("   **User guide:**")
