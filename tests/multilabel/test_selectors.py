"""Discretizer, MFSEF, MFSLS, PMU and MDDMRanking against brute-force versions and properties."""

import numpy as np
import pytest
import scipy.linalg
from sklearn.base import clone
from sklearn.preprocessing import KBinsDiscretizer

from milab_widgets.core import information as info
from milab_widgets.exceptions import InputError
from milab_widgets.multilabel import MFSEF, MFSLS, PMU, Discretizer, MDDMRanking
from milab_widgets.multilabel.mfsef import sampling_counts
from milab_widgets.multilabel.selection import top_features


@pytest.fixture(scope="module")
def problem():
    """Labels driven by a few features; the others noise or near-copies."""
    rng = np.random.default_rng(0)
    X = rng.random((240, 12))
    X[:, 7] = X[:, 0] + 0.01 * rng.random(240)  # a near-copy of feature 0
    Y = np.column_stack([X[:, 0] > 0.5, X[:, 1] > 0.4, (X[:, 2] > 0.5) & (X[:, 0] > 0.3)])
    return X, Y.astype(np.int64)


# -- discretizer -----------------------------------------------------------------------------
@pytest.mark.parametrize("n_bins", [2, 3, 5])
def test_discretizer_equals_sklearn_uniform_bins(n_bins):
    rng = np.random.default_rng(n_bins)
    train, test = rng.normal(size=(50, 4)), rng.normal(scale=2, size=(30, 4))
    ours = Discretizer(n_bins).fit(train)
    theirs = KBinsDiscretizer(n_bins, encode="ordinal", strategy="uniform").fit(train)
    np.testing.assert_array_equal(ours.transform(train), theirs.transform(train))
    np.testing.assert_array_equal(ours.transform(test), theirs.transform(test))  # clipped ends


def test_constant_feature_has_one_state_and_bad_bins_are_refused():
    model = Discretizer(2).fit([[1.0, 0.0], [1.0, 2.0]])
    assert model.n_states_.tolist() == [1, 2]
    assert model.transform([[5.0, 1.0]]).tolist() == [[0, 1]]
    with pytest.raises(ValueError, match=r"'n_bins' parameter .* \[2, inf\)"):
        Discretizer(1).fit([[0.0], [1.0]])


# -- MFSEF / MFSLS ---------------------------------------------------------------------------
def brute_mfsef(X, Y, k, n_experts, ratios):
    """Algorithm 1 written out with the scalar information functions."""
    codes = Discretizer(2).fit_transform(X)
    d, labels = X.shape[1], range(Y.shape[1])
    fmi = [sum(info.mutual_information(codes[:, f], Y[:, label]) for label in labels)
           for f in range(d)]
    experts = list(np.argsort(-np.array(fmi), kind="stable")[:n_experts])
    rest = [f for f in range(d) if f not in experts]
    score = {f: sum(info.joint_mutual_information([codes[:, f], *codes[:, experts].T], Y[:, label])
                    for label in labels) for f in rest}
    ranked = sorted(rest, key=lambda f: -score[f])  # stable: lower index first on ties
    parts = np.array_split(np.array(ranked), len(ratios))
    picks = []
    counts = sampling_counts(k - n_experts, ratios, [len(p) for p in parts])
    for part, count in zip(parts, counts, strict=True):
        redundancy = {f: sum(info.mutual_information(codes[:, f], codes[:, g])
                             for g in part if g != f) for f in part}
        picks += sorted(part, key=lambda f: redundancy[f])[:count]
    return experts + [int(f) for f in picks]


@pytest.mark.parametrize("k, n_experts", [(8, 4), (6, 2), (5, 0)])
def test_mfsef_equals_brute_force(problem, k, n_experts):
    X, Y = problem
    ratios = (0.6, 0.3, 0.1)
    model = MFSEF(k, n_experts=n_experts, ratios=ratios).fit(X, Y)
    assert model.selected_.tolist() == brute_mfsef(X, Y, k, n_experts, ratios)


def test_mfsls_is_mfsef_without_experts(problem):
    X, Y = problem
    assert MFSLS(6).fit(X, Y).selected_.tolist() == MFSEF(6, n_experts=0).fit(X, Y).selected_.tolist()


def test_hand_picked_experts_come_first_and_selection_reuses_the_fit(problem):
    X, Y = problem
    model = MFSEF(7, experts=[5, 3]).fit(X, Y)
    assert model.selected_[:2].tolist() == [5, 3] and len(set(model.selected_)) == 7
    assert np.isnan(model.scores_[[5, 3]]).all()
    assert model.selection(3)[:2].tolist() == [5, 3] and len(model.selection(12)) == 12
    assert model.selection(1).tolist() == [5]


def test_selection_uses_the_fitted_ratios(problem):
    X, Y = problem
    model = MFSEF(8, n_experts=2, ratios=(0.5, 0.5)).fit(X, Y)
    before = model.selection(6).tolist()
    model.ratios = (0.9, 0.05)  # changed after the fit (and invalid): the fit's ratios rule
    assert model.ratios_.tolist() == [0.5, 0.5] and model.selection(6).tolist() == before


def test_many_hand_picked_experts_fit():
    """70 experts (2^70 mixed-radix joint states) need at most n_samples dense states."""
    rng = np.random.default_rng(3)
    X = rng.random((120, 80))
    Y = np.column_stack([X[:, 0] > 0.5, X[:, 75] > 0.4]).astype(int)
    model = MFSEF(74, experts=list(range(70))).fit(X, Y)
    assert model.selected_[:70].tolist() == list(range(70))
    assert sorted(model.selected_[70:].tolist()) == sorted(set(model.selected_[70:].tolist()))
    assert np.isfinite(model.scores_[70:]).all()


def test_top_features_is_the_stable_relevance_order():
    assert top_features(np.array([0.1, 0.3, 0.3, 0.2]), 3).tolist() == [1, 2, 3]
    assert top_features(np.array([0.1, 0.3]), 0).tolist() == []


@pytest.mark.parametrize("total, ratios, sizes, expected", [
    (10, (0.6, 0.3, 0.1), [5, 5, 5], [5, 4, 1]),    # part 1 capped at 5, excess to part 2
    (7, (0.6, 0.3, 0.1), [9, 9, 9], [4, 2, 1]),     # 4.2, 2.1, 0.7: the leftover to the 0.7
    (3, (0.5, 0.5), [4, 4], [2, 1]),                # equal remainders: the earlier part wins
    (0, (0.6, 0.3, 0.1), [2, 2, 2], [0, 0, 0]),
])
def test_sampling_counts_add_up(total, ratios, sizes, expected):
    assert sampling_counts(total, ratios, sizes) == expected


@pytest.mark.parametrize("params, message", [
    ({"ratios": (0.5, 0.2)}, "summing to 1"),
    ({"experts": [0, 0]}, "distinct"),
    ({"experts": [99]}, r"in \[0, 12\)"),
    ({"n_features": 13}, "exceeds the 12 features"),
    ({"n_features": 0}, r"'n_features' parameter of MFSEF .* \[1, inf\)"),
    ({"experts": [1.5]}, "distinct integer feature indices"),
])
def test_mfsef_bad_parameters_are_named(problem, params, message):
    with pytest.raises(ValueError, match=message):  # InputError or InvalidParameterError
        MFSEF(**params).fit(*problem)


# -- PMU -------------------------------------------------------------------------------------
def multivariate_mi(a, b, c):
    """Lee & Kim's V(a; b; c) = I(a; b) - I(a; b | c)."""
    return -info.interaction_information(a, b, c)


def brute_pmu(X, Y, k, pairs="i<j"):
    codes = Discretizer(2).fit_transform(X)
    d, L = X.shape[1], Y.shape[1]
    label_pairs = [(i, j) for i in range(L) for j in range(L) if (i < j if pairs == "i<j" else True)]
    selected = []
    for _ in range(k):
        def objective(f):
            relevance = sum(info.mutual_information(codes[:, f], Y[:, label]) for label in range(L))
            redundancy = sum(multivariate_mi(codes[:, f], codes[:, s], Y[:, label])
                             for s in selected for label in range(L))
            labels = sum(multivariate_mi(codes[:, f], Y[:, i], Y[:, j]) for i, j in label_pairs)
            return relevance - redundancy - labels
        candidates = [f for f in range(d) if f not in selected]
        values = [objective(f) for f in candidates]
        selected.append(candidates[int(np.argmax(values))])
    return selected


def test_pmu_equals_brute_force(problem):
    X, Y = problem
    model = PMU(5).fit(X, Y)
    assert model.selected_.tolist() == brute_pmu(X, Y, 5)
    assert model.selection(2).tolist() == model.selected_[:2].tolist()


def test_pmu_keeps_its_relevance_term(problem):
    X, Y = problem
    model = PMU(3).fit(X, Y)
    codes = Discretizer(2).fit_transform(X)
    diagonal = sum(multivariate_mi(codes[:, 0], Y[:, label], Y[:, label]) for label in range(3))
    assert diagonal == pytest.approx(model.relevance_[0])  # V(f; l; l) = I(f; l)
    # The first pick maximises relevance - label interactions, not just the interactions:
    assert model.objective_[0] == pytest.approx(
        np.max(model.relevance_ - model.label_interaction_))
    assert model.selected_[0] in (0, 1)  # features that drive labels, not noise
    summing_all_pairs = brute_pmu(X, Y, 3, pairs="all")
    assert summing_all_pairs != model.selected_.tolist()  # the known bug changes the choice


def test_pmu_cannot_select_beyond_its_fit(problem):
    with pytest.raises(InputError, match="refit with a larger n_features"):
        PMU(3).fit(*problem).selection(4)


# -- MDDM ------------------------------------------------------------------------------------
def brute_mddm_weights(X, Y, variant, mu=0.5):
    Xn = (X - X.min(0)) / np.ptp(X, 0)
    n = len(X)
    H = np.eye(n) - np.ones((n, n)) / n
    S = Xn.T @ H @ (Y @ Y.T) @ H @ Xn
    if variant == "proj":
        values, vectors = np.linalg.eigh(S)
    else:
        B = mu * (H @ Xn).T @ (H @ Xn) + (1 - mu) * np.eye(X.shape[1])
        values, vectors = scipy.linalg.eigh(S, B)
    top = vectors[:, np.argsort(values)[::-1][: Y.shape[1]]]
    return np.linalg.norm(top, axis=1)


@pytest.mark.parametrize("variant", ["proj", "spc"])
def test_mddm_weights_equal_the_dense_eigenproblem(problem, variant):
    X, Y = problem
    model = MDDMRanking(4, variant=variant).fit(X, Y)
    np.testing.assert_allclose(model.weights_, brute_mddm_weights(X, Y, variant), atol=1e-8)
    assert model.selected_.tolist() == np.argsort(-model.weights_)[:4].tolist()
    if variant == "proj":
        np.testing.assert_allclose(model.projection_.T @ model.projection_, np.eye(3), atol=1e-10)


def test_selectors_follow_the_estimator_contract(problem):
    X, Y = problem
    for selector in (MFSEF(4), MFSLS(4), PMU(4), MDDMRanking(4, variant="spc")):
        fitted = clone(selector).fit(X, Y)
        assert fitted.transform(X).shape == (len(X), 4)
        np.testing.assert_array_equal(fitted.transform(X), X[:, fitted.selected_])
    with pytest.raises(ValueError, match="'variant' parameter of MDDMRanking"):
        MDDMRanking(variant="pca").fit(X, Y)
