"""Each paper's data sets and names live in its record (milab_widgets.papers.<paper>): the
experiment, claims and charts read them there, and a chart module no longer loads the
experiment (whose imports bring numba and scikit-learn) for a list of names."""

import subprocess
import sys

import pytest

from milab_widgets.papers import registered

CHARTS = ["inth", "cdvse", "mfsef", "twoview", "lskmddm"]


@pytest.mark.parametrize("module", CHARTS)
def test_a_chart_module_does_not_load_its_experiment(module):
    script = (f"import sys, milab_widgets.charts.{module}\n"
              "print(sorted(m for m in sys.modules if m.startswith('milab_widgets.experiments.')))")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=120, check=True)
    assert result.stdout.strip() == "[]"


def test_the_experiments_read_their_papers_records():
    from milab_widgets.experiments import cdvse, inth, lskmddm, mfsef, twoview

    papers = registered()
    assert papers["intH"].datasets["table3"] == inth.TABLE3_DATASETS
    assert list(inth.METRICS.values()) == ["minH", "maxH", "intH", "aveH", "adaH"]
    assert cdvse.METHODS is papers["CDVSE"].vocabulary["method"]
    assert tuple(papers["MFSEF"].vocabulary["method"]) == mfsef.METHODS
    assert list(twoview.METHODS) == list(papers["TwoViewMIC"].vocabulary["method"])
    assert tuple(papers["LSkMDDM"].vocabulary["method"]) == lskmddm.METHODS
