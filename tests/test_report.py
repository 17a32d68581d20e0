"""The report on the catalogue's claims.csv: the paper's claims before the project's checks,
not-tested claims and exact checks counted apart, each number in one form (ratios as "x",
"—" for no interval, one way of writing infinity), tables that were not run named as such,
and skip reasons as sentences. Hand-made output folders in the new format."""

import json

import numpy as np
import pandas as pd
import pytest

from milab_widgets import report
from milab_widgets.claims import CATALOGUE_COLUMNS, Claim, claim_row, claims_table, untested
from milab_widgets.experiments.tables import write_tables
from milab_widgets.papers import PAPERS

PAPER_BEATS = Claim("beats-all", "Ker beats every baseline", "§3.3, Tables 1-2", "every case",
                    "6 cells")
PAPER_LEVEL = Claim("above-75", "ACC above 75 %", "§3.4, Fig. 2", "above threshold", "1 panel",
                    margin=0.75)
PAPER_MISSING = Claim("needs-nus", "Ker on NUS-WIDE2", "Table 2", "every case", "3 generators")
PROJECT_SPEED = Claim("factor-faster", "factor is faster", "ours", "faster", "2 data sets",
                      origin="project")
CATALOGUE = (PAPER_BEATS, PAPER_LEVEL, PAPER_MISSING, PROJECT_SPEED)


def catalogue_claims() -> pd.DataFrame:
    def result(effect, low, high, p, verdict, null=0.0):
        return {"effect": effect, "ci_low": low, "ci_high": high, "p_value": p,
                "verdict": verdict, "test": "t", "n": 5, "null": null}

    cases = pd.DataFrame({"effect": [0.02, -0.1, 0.05], "verdict": ["supported",
                                                                      "contradicted",
                                                                      "inconclusive"]})
    rows = [claim_row(PAPER_BEATS, result(-0.1, -0.15, -0.05, 0.001, "contradicted"),
                      noise="runs on the same bags", cases=cases),
            claim_row(PAPER_LEVEL, result(0.52, np.nan, np.nan, np.nan, "inconclusive",
                                          null=0.75), noise="grid runs"),
            untested(PAPER_MISSING, "NUS-WIDE2 is not obtainable here"),
            claim_row(PROJECT_SPEED, result(0.0711, 0.05, 0.1, 0.002, "contradicted",
                                            null=1.0), noise="timing repeats")]
    return claims_table(rows, CATALOGUE)


def write_paper(output, paper="TwoViewMIC", claims=None, tables=None, skipped=None,
                quick=True):
    folder = output / paper
    folder.mkdir(parents=True)
    cells = [{"cell_type": "markdown", "metadata": {}, "source": [f"# {paper}\n"]}]
    (folder / PAPERS[paper]).write_text(json.dumps({
        "cells": cells, "metadata": {"papermill": {"duration": 5.0}}, "nbformat": 4,
        "nbformat_minor": 5}))
    frames = {"claims": catalogue_claims() if claims is None else claims, **(tables or {})}
    write_tables(folder, frames, {"quick": quick, "seed": 0}, skipped or {})
    (folder / "verdict.md").write_text("verdict\n")
    return folder


@pytest.fixture
def built(tmp_path):
    write_paper(tmp_path, tables={"table1_digits-a": pd.DataFrame({"method": ["Ker1"],
                                                                   "kmeansseg": ["55 ± 2"]})})
    markdown, _ = report.build_report(tmp_path)
    return tmp_path, markdown.read_text()


def test_the_paper_claims_lead_and_the_projects_checks_follow_under_their_own_heading(built):
    _, md = built
    paper, project = md.index("### The paper's claims"), md.index("### The project's own")
    assert paper < md.index("| Ker beats every baseline |") < project \
        < md.index("| factor is faster |")
    assert ("Our data reproduce **0 of 2 claims** tested (1 more partly, on some of their "
            "cases); **0 supported**, **1 contradicted**, **1 inconclusive** of 2 claims "
            "tested statistically; 1 not tested (the data it needs is missing: see each "
            "row).") in md
    assert "of 1 check tested statistically" in md and "of 1 checks" not in md
    summary = next(line for line in md.splitlines() if line.startswith("| [TwoViewMIC]"))
    # reproduced k of n (partly apart), verdicts, not tested apart, the project's checks apart
    assert summary.startswith("| [TwoViewMIC](#TwoViewMIC) | ok | quick | 0 | 0 of 2 "
                              "(+1 partly) | 0 · 1 · 1 | 1 | none | 0 · 1 · 0 |")


def test_each_row_says_what_its_interval_covers_and_prints_one_form_per_quantity(built):
    _, md = built
    rows = {line.split(" | ")[0][2:]: line.split(" | ") for line in md.splitlines()
            if line.startswith("| Ker") or line.startswith("| ACC") or line.startswith("| factor")}
    speed = rows["factor is faster"]
    assert speed[5] == "paper"  # the basis column
    assert speed[6:9] == ["0.0711x", "[0.05x, 0.1x]", "0.002"]  # a ratio, not "+0.0711"
    assert speed[10] == "timing repeats"
    level = rows["ACC above 75 %"]
    assert level[6:8] == ["+0.52 (against 0.75)", "—"]  # no interval: "—", never "[, ]"
    beats = rows["Ker beats every baseline"]
    assert beats[3:5] == ["partly (2 of 3)", "contradicted"] and beats[10] == \
        "runs on the same bags"
    missing = rows["Ker on NUS-WIDE2"]
    assert missing[3:5] + missing[6:7] == ["not tested", "—", "—"]
    assert missing[10] == "NUS-WIDE2 is not obtainable here"
    assert "[, ]" not in md and "−∞" not in md  # infinity is written one way: -∞ / +∞


def test_the_forest_plot_takes_each_rows_own_null(built, monkeypatch):
    output, _ = built
    drawn = {}

    def capture(chart, path, formats):
        drawn["spec"] = chart.to_dict()
        return (path,)

    monkeypatch.setattr("milab_widgets.charts.theme.save_chart", capture)
    result = report.read_result(output, "TwoViewMIC")
    report.forest_plot(result, output)
    rows = {row["row"]: row for data in drawn["spec"]["datasets"].values() for row in data
            if "row" in row}
    assert "needs-nus" not in rows  # not tested: not drawn
    assert rows["factor-faster (project)"]["null"] == 1.0
    assert rows["factor-faster (project)"]["effect_text"] == "0.0711x"
    assert rows["above-75"]["null"] == 0.75 and rows["beats-all"]["null"] == 0.0
    stable = catalogue_claims().iloc[:1].assign(scope="equivalent", margin=0.04, id="stable")
    spec = report.forest_figure(stable, "TwoViewMIC").to_dict()
    drawn_stable = [row for data in spec["datasets"].values() for row in data if "row" in row]
    assert drawn_stable[0]["null"] == 0.04  # an equivalence is read against its margin
    assert (output / "verdicts" / "TwoViewMIC.png").stat().st_size > 1000  # by build_report


def test_a_table_that_was_not_run_says_why_instead_of_showing_as_a_result(tmp_path):
    # quick mode runs digits-a only: Table 2 (digits-b) is not written, nothing is skipped
    write_paper(tmp_path, tables={"table1_digits-a": pd.DataFrame({"method": ["Ker1"]})})
    md = report.build_report(tmp_path)[0].read_text()
    assert ("*Table 2: ACC (%) on digits-b*: not run: the quick protocol does not run it; "
            "`milab reproduce TwoViewMIC --full` does.") in md
    # an empty table (no rows, as on a fresh install without the data) with skipped sets
    other = tmp_path / "other"
    write_paper(other, "MFSEF", skipped={"arts": "dataset 'arts' is missing; run "
                                                 "`milab fetch arts`"})
    (other / "MFSEF" / "table2_AP.csv").write_text("")
    md = report.build_report(other)[0].read_text()
    assert ("*Table 2: average precision (rank)*: not run: the datasets it needs were skipped "
            "(arts; see Skipped datasets below).") in md
    assert "- **arts**: Dataset 'arts' is missing; run `milab fetch arts`." in md


def test_an_old_format_claims_csv_is_refused_naming_the_paper_and_the_command(tmp_path):
    old = pd.DataFrame({"claim": ["Ker beats every baseline"], "effect": [0.1],
                        "ci_low": [0.0], "ci_high": [0.2], "p_value": [0.04],
                        "verdict": ["supported"], "test": ["wilcoxon"], "n": [6]})
    write_paper(tmp_path, "LSkMDDM", claims=old)
    md = report.build_report(tmp_path)[0].read_text()
    assert ("**Not shown**: LSkMDDM's claims.csv is in the old format (it lacks the "
            "catalogue's columns cases, cases_supported") not in md
    assert ("LSkMDDM's claims.csv is in the old format (it lacks the catalogue's columns id, "
            "origin, source, scope, reproduced, reproduced_cases, null, margin, p_adjusted, "
            "verdict_unadjusted, noise, basis, basis_reason), so the report does not read it. Regenerate it with "
            "`milab reproduce LSkMDDM`") in md
    assert "| Ker beats every baseline |" not in md  # not shown as a result
    assert not (tmp_path / "verdicts" / "LSkMDDM.png").exists()
    assert "old claims.csv: rerun `milab reproduce LSkMDDM`" in md


def test_counts_keep_exact_checks_and_untested_claims_apart():
    claims = catalogue_claims()
    counts = report.claim_counts(claims[claims.origin == "paper"])
    assert (counts["claims"], counts["tested"], counts["not tested"]) == (3, 2, 1)
    assert (counts["yes"], counts["partly"], counts["no"]) == (0, 1, 1)
    assert report.reproduced_text(counts) == "0 of 2 (+1 partly)"
    assert report.plural(1, "claim") == "1 claim" and report.plural(2, "claim") == "2 claims"
    assert list(catalogue_claims().columns) == CATALOGUE_COLUMNS


def test_the_forest_plot_marks_rows_on_another_basis_and_the_projects_checks():
    claims = catalogue_claims()
    claims = claims.assign(basis=["stand-in data"] + ["paper"] * (len(claims) - 1),
                           basis_reason=["digits for NUS-WIDE"] + [""] * (len(claims) - 1))
    claims = claims[claims.reproduced != "not tested"]
    spec = report.forest_figure(claims, "TwoViewMIC").to_dict()
    labels = {row["row"] for data in spec["datasets"].values() for row in data if "row" in row}
    first = claims.iloc[0]
    expected = first.id + (" (stand-in data)" if first.origin == "paper" else " (project)")
    assert expected in labels
