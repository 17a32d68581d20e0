"""Degenerate problems: input that is valid in form but leaves nothing to learn (one sample,
identical rows, every label constant) gets a DegenerateInputWarning or an InputError naming
it -- never an arbitrary result without a word, never a ZeroDivisionError or a wrong culprit.
Every estimator fitted on (X, Y) is found from the exports, so a new one inherits the check."""

import warnings

import numpy as np
import pytest

from milab_widgets.exceptions import DegenerateInputWarning, InputError
from milab_widgets.oneclass import CDVSESVDD
from tests.bad_input.cases import fit_data, make, needs_label_matrix, public_estimators

MULTILABEL = [cls for cls in public_estimators() if needs_label_matrix(cls)]
SELECTORS = [cls for cls in MULTILABEL if hasattr(cls, "selection")]


def _degenerate(kind):
    X, Y = fit_data(MULTILABEL[0])
    return {"one sample": (X[:1], Y[:1]), "identical rows": (np.ones_like(X), Y),
            "Y all zeros": (X, np.zeros_like(Y)), "Y all ones": (X, np.ones_like(Y))}[kind]


KINDS = ["one sample", "identical rows", "Y all zeros", "Y all ones"]
WORDS = {"one sample": "one training sample", "identical rows": "same point",
         "Y all zeros": "every label of Y is the same", "Y all ones": "every label of Y is the same"}


def _small(cls):
    """``cls`` asking for 2 features where it selects features (X has only a few)."""
    return make(cls, n_features=2) if "n_features" in make(cls).get_params() else make(cls)


def test_the_estimators_on_x_and_y_are_found():
    assert {"MFSEF", "MFSLS", "PMU", "MDDMRanking", "MLkNN", "KernelMDDM", "LeastSquaresKCCA"} <= {
        cls.__name__ for cls in MULTILABEL}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("cls", MULTILABEL, ids=lambda cls: cls.__name__)
def test_no_information_warns_naming_it_or_is_refused(cls, kind):
    X, Y = _degenerate(kind)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            _small(cls).fit(X, Y)
        except InputError as error:  # refused: the message must say why (not a bare error)
            assert any(word in str(error) for word in ("sample", "identical", "no positive",
                                                       "median distance", "label")), error
            return
    messages = [str(w.message) for w in caught if w.category is DegenerateInputWarning]
    assert messages and WORDS[kind] in messages[0] and cls.__name__ in messages[0]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("cls", SELECTORS, ids=lambda cls: cls.__name__)
def test_selectors_warn_and_still_select(cls, kind):
    X, Y = _degenerate(kind)
    with pytest.warns(DegenerateInputWarning, match="no information to learn or select on"):
        selector = _small(cls).fit(X, Y)
    assert len(selector.selected_) == 2


def test_informative_data_gives_no_warning():
    X, Y = _degenerate("Y all zeros")[0], fit_data(MULTILABEL[0])[1]
    Y[:, 0] = 0  # one constant label among varying ones is information enough
    with warnings.catch_warnings():
        warnings.simplefilter("error", DegenerateInputWarning)
        for cls in SELECTORS:
            _small(cls).fit(X, Y)


@pytest.mark.parametrize("name", ["KernelMDDM", "LeastSquaresKCCA"])
def test_identical_rows_give_no_kernel_width_not_a_zero_division(name):
    cls = {c.__name__: c for c in MULTILABEL}[name]
    X, Y = _degenerate("identical rows")
    with pytest.raises(InputError, match="median distance between training points is 0"):
        make(cls).fit(X, Y)


def test_cdvse_on_identical_rows_names_them_not_gamma_l1():
    with pytest.raises(InputError, match="every row of X is the same point") as error:
        CDVSESVDD(n_estimators=5).fit(np.ones((20, 3)))
    assert "gamma_l1" not in str(error.value)
