"""The private scikit-learn APIs this package uses, fenced in this one module.

scikit-learn's declarative parameter validation (``sklearn.utils._param_validation``:
:class:`Interval`, :class:`StrOptions`, :func:`validate_params`,
:class:`InvalidParameterError`, and for the tests :func:`make_constraint` and
:func:`generate_invalid_param_val`), the decorator that checks an estimator's
``_parameter_constraints`` once per fit (``sklearn.base._fit_context``) and the helper that
names a transformer's output features (``sklearn.utils.validation._check_feature_names_in``)
are what scikit-learn's own estimators use, but they are not public API. Every module of the
package (and of its tests) imports them from here, so a change upstream is met in one place,
and ``pyproject.toml`` bounds scikit-learn to the minor series these names are known in.
"""

from sklearn.base import _fit_context as fit_context
from sklearn.utils._param_validation import (
    Interval,
    InvalidParameterError,
    StrOptions,
    generate_invalid_param_val,
    make_constraint,
    validate_params,
)
from sklearn.utils.validation import _check_feature_names_in as check_feature_names_in

__all__ = ["Interval", "InvalidParameterError", "StrOptions", "check_feature_names_in",
           "fit_context", "generate_invalid_param_val", "make_constraint", "validate_params"]
