"""Nogueira's stability estimate against a brute force over pairs of subsets, the
jackknife, simulated coverage and the properties the paper states."""

import numpy as np
import pytest

from milab_widgets.evaluation.selection_stability import nogueira_stability, selection_matrix
from milab_widgets.exceptions import InputError


def pairwise_stability(subsets: list[set], d: int) -> float:
    """Φ̂ as the mean over ordered pairs i != j of 1 - |s_i Δ s_j| / (2 k̄ (1 - k̄/d))."""
    M = len(subsets)
    k_bar = np.mean([len(s) for s in subsets])
    scale = 2 * k_bar * (1 - k_bar / d)
    total = sum(1 - len(a ^ b) / scale for i, a in enumerate(subsets)
                for j, b in enumerate(subsets) if i != j)
    return total / (M * (M - 1))


def pairwise_variance(subsets: list[set], d: int) -> float:
    """v(Φ̂) with each run's mean agreement p_{a,i} counted pair by pair."""
    M = len(subsets)
    sizes = np.array([len(s) for s in subsets])
    share = sizes.mean() / d
    phi = pairwise_stability(subsets, d)
    terms = []
    for a, k in zip(subsets, sizes, strict=True):
        agreement = np.mean([1 - len(a ^ b) / d for b in subsets])
        expected = (1 - phi) * (share * k / d + (1 - share) * (1 - k / d))
        terms.append((agreement - expected) / (2 * share * (1 - share)))
    terms = np.array(terms)
    return 4 / M**2 * np.sum((terms - terms.mean()) ** 2)


def jackknife_variance(Z: np.ndarray) -> float:
    """The jackknife's variance of Φ̂: (M - 1)/M Σ_i (Φ̂_(-i) - mean)², an estimate of the
    same asymptotic variance found without the delta method."""
    M = len(Z)
    left_out = np.array([nogueira_stability(np.delete(Z, i, axis=0)).stability
                         for i in range(M)])
    return (M - 1) / M * np.sum((left_out - left_out.mean()) ** 2)


def random_subsets(rng, M, d, sizes):
    return [set(rng.choice(d, size=k, replace=False).tolist()) for k in sizes]


def nested_subsets(rng, M, d=30):
    """Runs that keep the features whose noisy weight passes a per-run threshold: subsets
    of very different sizes (k̄/d about 0.2), where the size term of v(Φ̂) matters."""
    weights = np.linspace(1, 0, d)
    thresholds = rng.uniform(0.6, 0.97, M)[:, None]
    return (weights + rng.normal(0, 0.1, (M, d)) > thresholds).astype(int)


@pytest.mark.parametrize("seed, M, d, fixed", [(0, 5, 12, True), (1, 9, 40, False),
                                               (2, 2, 7, False), (3, 20, 25, True)])
def test_estimate_and_variance_equal_the_brute_force_over_pairs(seed, M, d, fixed):
    rng = np.random.default_rng(seed)
    sizes = [4] * M if fixed else rng.integers(1, d, M)
    subsets = random_subsets(rng, M, d, sizes)
    if fixed:  # a selector with preferences, so that Φ̂ is not near 0
        subsets = [s | {0, 1} for s in subsets]
    estimate = nogueira_stability(selection_matrix([sorted(s) for s in subsets], d))
    assert estimate.stability == pytest.approx(pairwise_stability(subsets, d), abs=1e-12)
    assert estimate.variance == pytest.approx(pairwise_variance(subsets, d), abs=1e-14)
    assert estimate.n_subsets == M and estimate.mean_size == pytest.approx(
        np.mean([len(s) for s in subsets]))


def test_fixed_size_stability_is_the_mean_kuncheva_index():
    rng = np.random.default_rng(5)
    d, k = 20, 5
    subsets = [set(rng.choice(8, size=k, replace=False).tolist()) for _ in range(6)]
    kuncheva = [(len(a & b) - k * k / d) / (k - k * k / d)
                for i, a in enumerate(subsets) for j, b in enumerate(subsets) if i != j]
    Z = selection_matrix([sorted(s) for s in subsets], d)
    assert nogueira_stability(Z).stability == pytest.approx(np.mean(kuncheva))


def test_identical_subsets_are_perfectly_stable():
    estimate = nogueira_stability(selection_matrix([[3, 1, 4]] * 6, 10))
    assert (estimate.stability, estimate.variance) == (1.0, 0.0)
    assert (estimate.ci_low, estimate.ci_high) == (1.0, 1.0)


def test_random_subsets_of_a_fixed_size_have_stability_near_zero():
    rng = np.random.default_rng(7)
    estimate = nogueira_stability(selection_matrix(
        [rng.choice(50, size=10, replace=False) for _ in range(2000)], 50))
    assert abs(estimate.stability) < 0.01
    assert estimate.ci_low < 0 < estimate.ci_high


def test_the_bounds_hold_and_the_lower_one_is_reached():
    # the paper's toy example: 2 of 3 features, every pair different: -1/(M - 1)
    assert nogueira_stability([[1, 1, 0], [0, 1, 1], [1, 0, 1]]).stability == \
        pytest.approx(-0.5)
    rng = np.random.default_rng(11)
    for _ in range(200):
        M, d = rng.integers(2, 12), rng.integers(2, 15)
        Z = (rng.random((M, d)) < rng.uniform(0.05, 0.95)).astype(int)
        if not 0 < Z.sum(axis=1).mean() < d:
            continue
        stability = nogueira_stability(Z).stability
        assert -1 / (M - 1) - 1e-12 <= stability <= 1 + 1e-12


def test_the_variance_agrees_with_the_jackknife_where_subset_sizes_vary():
    """Both estimate the same asymptotic variance; the delta method's size term (p_{e,i})
    is needed for the agreement (without it the ratio is 0.57-0.79 on these runs)."""
    Z = nested_subsets(np.random.default_rng(13), 400)
    assert 0.15 < Z.sum(axis=1).mean() / Z.shape[1] < 0.3
    assert Z.sum(axis=1).std() > 2
    assert nogueira_stability(Z).variance / jackknife_variance(Z) == pytest.approx(1, abs=0.03)


def test_the_interval_covers_the_population_stability_at_about_its_level():
    rng = np.random.default_rng(17)
    truth = nogueira_stability(nested_subsets(rng, 40000)).stability
    estimates = [nogueira_stability(nested_subsets(rng, 40)) for _ in range(500)]
    covered = np.mean([e.ci_low <= truth <= e.ci_high for e in estimates])
    assert 0.89 <= covered <= 0.99
    spread = np.var([e.stability for e in estimates], ddof=1)
    assert spread / np.mean([e.variance for e in estimates]) == pytest.approx(1, abs=0.3)
    narrow = nogueira_stability(nested_subsets(rng, 40), confidence=0.5)
    wide = nogueira_stability(nested_subsets(rng, 40), confidence=0.99)
    assert narrow.ci_high - narrow.ci_low < wide.ci_high - wide.ci_low


@pytest.mark.parametrize("Z, match", [
    ([[1, 0, 1]], "M >= 2"),
    ([[1, 0], [0, 2]], "only 0 and 1"),
    ([[0, 0], [0, 0]], "undefined"),
    ([[1, 1], [1, 1]], "undefined"),
    (np.ones(4), "M x d"),
])
def test_bad_matrices_are_refused(Z, match):
    with pytest.raises(InputError, match=match):
        nogueira_stability(Z)


def test_bad_subsets_and_levels_are_refused():
    with pytest.raises(InputError, match="outside 0 ... 4"):
        selection_matrix([[0, 5]], 5)
    with pytest.raises(InputError, match="twice"):
        selection_matrix([[1, 1]], 5)
    with pytest.raises(InputError, match="confidence"):
        nogueira_stability([[1, 0], [0, 1]], confidence=1.0)
    np.testing.assert_array_equal(selection_matrix([[2, 0], []], 3), [[1, 0, 1], [0, 0, 0]])
