"""select_parameters (numpy grouping) against a pandas groupby oracle."""

import numpy as np
import pandas as pd
import pytest

from milab_widgets.evaluation.neighbors_cv import select_parameters


def _pandas_oracle(scores: pd.DataFrame) -> dict:
    means = (scores.groupby(["k", "sigma"], dropna=False)["accuracy"].mean().reset_index()
             .sort_values(["k", "sigma"], kind="stable"))
    best = means.iloc[int(np.argmax(means["accuracy"].to_numpy()))]
    return {"k": int(best["k"]), "sigma": float(best["sigma"]),
            "inner_accuracy": float(best["accuracy"])}


@pytest.mark.parametrize("seed", range(40))
def test_equals_a_pandas_groupby(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 30))
    sigmas = [np.nan] if seed % 2 else [0.1, 1.0, 10.0]
    scores = pd.DataFrame({"split": rng.integers(0, 5, n), "k": rng.choice([1, 3, 5, 7], n),
                           "sigma": rng.choice(sigmas, n), "alpha": 0.5,
                           "accuracy": rng.choice([0.5, 0.75, 1.0], n)})  # many ties
    ours, oracle = select_parameters(scores), _pandas_oracle(scores)
    assert ours["k"] == oracle["k"]
    np.testing.assert_equal(ours["sigma"], oracle["sigma"])  # NaN equals NaN here
    assert ours["inner_accuracy"] == pytest.approx(oracle["inner_accuracy"])


def test_means_equal_as_fractions_tie_whatever_their_rounding():
    # 0.3 + 0.2 + 0.1 = 0.6 but 0.1 + 0.2 + 0.3 = 0.6000000000000001: the same mean, so the
    # smaller K must win however the sums round
    scores = pd.DataFrame({"k": [1, 1, 1, 3, 3, 3], "sigma": np.nan,
                           "accuracy": [0.3, 0.2, 0.1, 0.1, 0.2, 0.3]})
    assert (0.3 + 0.2 + 0.1) / 3 < (0.1 + 0.2 + 0.3) / 3  # the premise
    assert select_parameters(scores)["k"] == 1
    scores["accuracy"] = [0.3, 0.2, 0.1, 0.1, 0.2, 0.3 + 1e-6]  # a real difference still counts
    assert select_parameters(scores)["k"] == 3
