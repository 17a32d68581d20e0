"""Bad hyper-parameters: every public estimator declares each of its parameters in
``_parameter_constraints`` and refuses a bad value at fit, before any work, with
scikit-learn's InvalidParameterError naming the parameter and the allowed values."""

import numpy as np
import pytest

from milab_widgets._sklearn_private import InvalidParameterError, generate_invalid_param_val
from tests.bad_input.cases import fit_data, make, public_estimators

ESTIMATORS = public_estimators()


def _ids(cls):
    return cls.__name__


@pytest.mark.parametrize("cls", ESTIMATORS, ids=_ids)
def test_every_parameter_is_declared(cls):
    declared = set(getattr(cls, "_parameter_constraints", {}))
    assert declared == set(make(cls).get_params(deep=False)), (
        f"{cls.__name__}._parameter_constraints must declare exactly its parameters")


def _bad_values(cls):
    """(estimator, parameter, bad value) for every parameter: a string, NaN, and what
    scikit-learn generates outside each declared interval or option set."""
    for name, constraints in cls._parameter_constraints.items():
        yield pytest.param(cls, name, "abc", id=f"{cls.__name__}-{name}-str")
        yield pytest.param(cls, name, np.nan, id=f"{cls.__name__}-{name}-nan")
        for constraint in constraints:
            try:
                value = generate_invalid_param_val(constraint)
            except NotImplementedError:
                continue
            if not any(_accepts(other, value) for other in constraints if other is not constraint):
                yield pytest.param(cls, name, value, id=f"{cls.__name__}-{name}-{value!r}")


def _accepts(constraint, value) -> bool:
    from milab_widgets._sklearn_private import make_constraint
    return make_constraint(constraint).is_satisfied_by(value)


@pytest.mark.parametrize("cls, name, value", [case for cls in ESTIMATORS
                                              for case in _bad_values(cls)])
def test_bad_value_is_refused_naming_the_parameter(cls, name, value):
    X, y = fit_data(cls)
    estimator = make(cls, **{name: value})
    with pytest.raises(InvalidParameterError, match=f"The '{name}' parameter of {cls.__name__} "
                                                    "must be"):
        estimator.fit(X, y)


@pytest.mark.parametrize("cls, params, name", [
    # the cases of issue 25, by hand
    ("KernelMDDM", {"solver": "lsqr", "max_iter": 0}, "max_iter"),
    ("KernelMDDM", {"solver": "lsqr", "max_iter": -3}, "max_iter"),
    ("KernelMDDM", {"solver": "lobpcg", "max_iter": 0}, "max_iter"),
    ("LeastSquaresKCCA", {"n_components": 2.5}, "n_components"),
    ("LeastSquaresKCCA", {"kernel_width": -1.0}, "kernel_width"),
    ("SVDD", {"max_iter": "10"}, "max_iter"),
    ("SVDD", {"tol": "1e-3"}, "tol"),
    ("BaggingSVDD", {"random_state": "abc"}, "random_state"),
    ("CDVSESVDD", {"sigma": "0.3"}, "sigma"),
    ("MDDMRanking", {"mu": "0.5"}, "mu"),
    ("KernelMDDM", {"ridge": "1"}, "ridge"),
    ("KernelMDDM", {"kernel_width": "1"}, "kernel_width"),
    ("CitationKNN", {"alpha": "0.5"}, "alpha"),
    ("BagKNN", {"sigma": "1"}, "sigma"),
])
def test_issue_cases(cls, params, name):
    cls = {c.__name__: c for c in ESTIMATORS}[cls]
    with pytest.raises(InvalidParameterError, match=f"'{name}' parameter of {cls.__name__}"):
        make(cls, **params).fit(*fit_data(cls))
