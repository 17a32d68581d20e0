"""A sixth paper as a plugin (tests/plugin_paper): registered through the
``milab_widgets.papers`` entry points with no edit of the project's files, it appears in the
registry, the lab, ``milab reproduce`` and its report."""

import json
import shutil
import subprocess
import sys

import pandas as pd
import pytest

from milab_widgets.papers import PAPERS, registered
from tests.plugins.plugin import PLUGIN_SITE, plugin_env, run_with_plugin

FIVE = ["intH", "CDVSE", "MFSEF", "TwoViewMIC", "LSkMDDM"]


def test_the_project_registers_its_five_papers_through_its_entry_points():
    assert list(PAPERS) == FIVE
    assert all(registered()[short].panel.startswith("milab_widgets.widgets.") for short in FIVE)


def test_the_plugin_paper_is_registered_after_the_five_and_shows_in_the_lab():
    result = run_with_plugin("""
        from milab_widgets.papers import PAPERS
        from milab_widgets.widgets.lab import Lab
        lab = Lab()
        lab.selected_index = len(lab.children) - 1
        panel = lab.panels["Sixth"]
        print(list(PAPERS))
        print(list(lab.titles))
        print(type(panel).__name__, panel.last_error)
        print("A. Fixture" in panel.header.value, "run(folds=5)" in panel.code())
    """)
    assert result.returncode == 0, result.stderr
    papers, titles, panel, header = result.stdout.splitlines()[-4:]
    assert papers == str([*FIVE, "Sixth"]) and titles == papers
    assert panel == "SixthPanel None" and header == "True True"


def test_milab_reproduce_runs_the_plugin_paper_and_reports_it(tmp_path):
    output = tmp_path / "out"
    run = subprocess.run([sys.executable, "-m", "milab_widgets.cli", "reproduce", "sixth",
                          "--output", str(output)], env=plugin_env(), capture_output=True,
                         text=True, timeout=600, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Sixth: done" in run.stdout + run.stderr
    claims = pd.read_csv(output / "Sixth" / "claims.csv")
    assert list(claims.id) == ["beats-majority", "above-80"]
    assert set(claims.verdict) == {"supported"}
    assert json.loads((output / "Sixth" / "settings.json").read_text())["quick"] is True
    report = (output / "REPORT.md").read_text()
    assert "| [Sixth](#Sixth) | ok | quick |" in report
    assert "Accuracy per fold" in report  # the headline table its record declares


@pytest.mark.parametrize(("entry", "message"), [
    ("Sixth = sixth_paper.experiment:METHODS", "is a dict, not a milab_widgets.papers.spec.Paper"),
    ("Seventh = sixth_paper.spec:SPEC", "registers the paper 'Sixth'"),
    ("intH = sixth_paper.spec:SPEC", "registers the paper 'Sixth'"),
])
def test_a_bad_registration_is_refused_naming_the_entry_point(tmp_path, entry, message):
    site = tmp_path / "site"
    shutil.copytree(PLUGIN_SITE, site)
    points = site / "milab_sixth_paper-0.1.dist-info" / "entry_points.txt"
    points.write_text(f"[milab_widgets.papers]\n{entry}\n")
    result = run_with_plugin("import milab_widgets.papers", site=site)
    assert result.returncode != 0 and message in result.stderr, result.stderr


def test_two_papers_with_one_short_name_are_refused_naming_both_entry_points(tmp_path):
    site = tmp_path / "site"
    shutil.copytree(PLUGIN_SITE, site)
    (site / "sixth_twin.py").write_text("from sixth_paper.spec import SPEC\n")
    points = site / "milab_sixth_paper-0.1.dist-info" / "entry_points.txt"
    points.write_text("[milab_widgets.papers]\nSixth = sixth_paper.spec:SPEC\n"
                      "Sixth = sixth_twin:SPEC\n")
    result = run_with_plugin("import milab_widgets.papers", site=site)
    assert result.returncode != 0, result.stdout
    assert ("two papers are registered as 'Sixth': sixth_paper.spec:SPEC and sixth_twin:SPEC"
            in result.stderr), result.stderr
