"""Before fit: every method that needs a fitted estimator raises NotFittedError (never a
bare AttributeError), for every public estimator."""

import pytest
from sklearn.exceptions import NotFittedError

from tests.bad_input.cases import fit_data, make, public_estimators

#: Methods that read the fit, and their arguments besides X (None: X is not passed).
METHODS = {
    "predict": (), "predict_proba": (), "decision_function": (), "score_samples": (),
    "transform": (), "squared_distance": (), "query_distances": (), "reference_indices": (),
    "citer_mask": (), "decision_function_grid": ([1],), "neighbor_label_counts": (),
    "gram": (), "posteriors": (), "factor": (), "selection": None, "get_feature_names_out": None,
}


def _cases():
    for cls in public_estimators():
        for method, extra in METHODS.items():
            if hasattr(cls, method):
                yield pytest.param(cls, method, extra, id=f"{cls.__name__}.{method}")


@pytest.mark.parametrize("cls, method, extra", list(_cases()))
def test_unfitted_estimator_raises_not_fitted(cls, method, extra):
    X, _ = fit_data(cls)
    query = X[0] if isinstance(X, list) else X
    call = getattr(make(cls), method)
    with pytest.raises(NotFittedError, match="not fitted yet"):
        if method == "selection":
            call(2)
        elif extra is None:
            call()
        else:
            call(query, *extra)
