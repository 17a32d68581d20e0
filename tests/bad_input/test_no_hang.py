"""Iterative searches refuse a tolerance <= 0 and stop at an iteration cap: each call
here returns (or raises) at once; a regression would hang, so each runs in a thread with
a deadline."""

import threading
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from milab_widgets._sklearn_private import InvalidParameterError
from milab_widgets.mil import golden_section_maximize, tune_alpha_nca

D = np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 1.5], [2.0, 1.5, 0.0]])
DEADLINE = 20.0


def _finishes(call):
    """Run ``call`` in a daemon thread; the exception it raised (or None) if it finished
    within the deadline, else fail."""
    outcome = {}

    def run():
        try:
            with warnings.catch_warnings(record=True):
                warnings.simplefilter("always")
                outcome["result"] = call()
        except Exception as error:  # noqa: BLE001 -- returned to the test
            outcome["error"] = error

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(DEADLINE)
    assert not thread.is_alive(), f"still running after {DEADLINE} s: a hang"
    return outcome.get("error")


@pytest.mark.parametrize("tol", [0, -1, 0.0, np.nan])
@pytest.mark.parametrize("call, caller", [
    (lambda tol: golden_section_maximize(np.sin, 0.0, 1.0, tol=tol), "golden_section_maximize"),
    (lambda tol: tune_alpha_nca(D, D, [0, 1, 0], 1.0, tol=tol), "tune_alpha_nca"),
    (lambda tol: tune_alpha_nca(D, D, [0, 1, 0], 1.0, tol=tol, grid=None), "tune_alpha_nca"),
], ids=["golden", "tune-grid", "tune-pure"])
def test_non_positive_tolerance_is_refused(call, caller, tol):
    error = _finishes(lambda: call(tol))
    assert isinstance(error, InvalidParameterError)
    assert f"The 'tol' parameter of {caller} must be a float in the range (0.0, inf)" in str(error)


def test_a_tolerance_below_the_float_spacing_stops_at_the_cap():
    with pytest.warns(ConvergenceWarning, match="max_iter=200"):
        x, _, evaluations = golden_section_maximize(np.sin, 0.0, 3.0, tol=1e-300)
    assert x == pytest.approx(np.pi / 2, abs=1e-7) and evaluations == 203


@pytest.mark.parametrize("max_iter", [0, -3, 2.5])
def test_iteration_cap_must_be_a_positive_integer(max_iter):
    with pytest.raises(InvalidParameterError, match="'max_iter' parameter of golden_section"):
        golden_section_maximize(np.sin, 0.0, 1.0, max_iter=max_iter)


def test_two_view_clustering_with_tol_zero_runs_exactly_max_iter():
    """tol=0 is kept (the experiments' fixed-iteration protocol): the cap ends the loop."""
    from milab_widgets.mil import TwoViewMIClustering
    from tests.bad_input.cases import bags
    data = bags()
    model = {}
    assert _finishes(lambda: model.setdefault("fit", TwoViewMIClustering(
        2, tol=0, max_iter=7, n_components=3, random_state=0).fit([data, data]))) is None
    assert model["fit"].n_iter_ == 7 and not model["fit"].converged_
    assert len(model["fit"].objective_) == 8
