"""Multi-instance kernels against brute-force definitions (scipy densities, per-bag loops)."""

import numpy as np
import pytest
from scipy.stats import multivariate_normal

from milab_widgets.data.bags import BagDataset
from milab_widgets.exceptions import InputError
from milab_widgets.mil import (
    MinimaxKernel,
    MixtureModelKernel,
    bag_kernel_factors,
    bag_kernel_matrices,
)
from tests.mil.conftest import random_bags


@pytest.fixture(scope="module")
def bags():
    return random_bags(seed=3, n_bags=12, n_features=3, max_size=5)


def brute_mixture_maps(kernel, bags):
    """phi(B) = sum_b (w_j N(b; mu_j, S_j) / sum_k w_k N(b; mu_k, S_k))_j, one bag at a time."""
    mixture = kernel.mixture_
    maps = []
    for bag in bags:
        scaled = kernel.scaler_.transform(bag)
        dens = np.column_stack([
            w * multivariate_normal(mu, np.diag(var)).pdf(scaled).reshape(-1)
            for w, mu, var in zip(mixture.weights_, mixture.means_, mixture.covariances_,
                                  strict=True)
        ])
        maps.append((dens / dens.sum(axis=1, keepdims=True)).sum(axis=0))
    return np.array(maps)


def brute_minimax(bags, degree, normalize):
    """(gamma <phi, phi'> + 1)^p on per-bag min/max of [0, 1]-scaled features, loops only."""
    low, high = bags.instances.min(axis=0), bags.instances.max(axis=0)
    maps = []
    for bag in bags:
        scaled = (bag - low) / (high - low)
        maps.append(np.concatenate([scaled.min(axis=0), scaled.max(axis=0)]))
    gamma = 1.0 / (2 * bags.n_features)
    n = len(maps)
    K = np.array([[(gamma * maps[s] @ maps[t] + 1) ** degree for t in range(n)] for s in range(n)])
    if normalize:
        K = K / np.sqrt(np.outer(np.diag(K), np.diag(K)))
    return K


@pytest.mark.parametrize("normalize", [False, True])
def test_mixture_kernel_equals_the_posterior_sum_definition(bags, normalize):
    kernel = MixtureModelKernel(n_components=4, random_state=0, normalize=normalize).fit(bags)
    maps = brute_mixture_maps(kernel, bags)
    np.testing.assert_allclose(kernel.transform(bags), maps, rtol=1e-7)
    expected = maps @ maps.T
    if normalize:
        expected /= np.sqrt(np.outer(np.diag(expected), np.diag(expected)))
    np.testing.assert_allclose(kernel.gram(bags), expected, rtol=1e-7)
    np.testing.assert_allclose(kernel.factor(bags) @ kernel.factor(bags).T, expected, rtol=1e-7)


@pytest.mark.parametrize("degree, normalize", [(5, False), (5, True), (2, False)])
def test_minimax_kernel_equals_the_definition(bags, degree, normalize):
    K = MinimaxKernel(degree, normalize).fit(bags).gram(bags)
    np.testing.assert_allclose(K, brute_minimax(bags, degree, normalize), rtol=1e-12)


def test_kernels_are_psd_symmetric_and_non_negative(bags):
    for kernel in ("mixture", "minimax"):
        for normalize in (False, True):
            K, = bag_kernel_matrices([bags], kernel, n_components=4, normalize=normalize,
                                     random_state=1)
            assert np.array_equal(K, K.T) or np.allclose(K, K.T, rtol=1e-14)
            assert (K >= 0).all()
            eigenvalues = np.linalg.eigvalsh(K)
            assert eigenvalues.min() >= -1e-10 * eigenvalues.max()
            if normalize:
                np.testing.assert_allclose(np.diag(K), 1.0)


def test_minimax_entries_stay_in_one_to_two_to_the_p_without_normalising():
    big = BagDataset.from_bags([np.full((2, 50), 1e6), np.zeros((3, 50)), np.eye(50)[:4] * 1e6])
    K = MinimaxKernel(degree=5, normalize=False).fit(big).gram(big)
    assert np.isfinite(K).all() and K.min() >= 1.0 and K.max() <= 2.0**5


def test_cross_gram_matches_the_joint_gram(bags):
    kernel = MinimaxKernel().fit(bags)
    first, second = bags[np.arange(5)], bags[np.arange(5, 12)]
    np.testing.assert_allclose(kernel.gram(first, second), kernel.gram(bags)[:5, 5:], rtol=1e-12)


def test_factors_are_per_view_and_normalised(bags):
    other = random_bags(seed=4, n_bags=12, n_features=5)
    factors = bag_kernel_factors([bags, other], n_components=3, random_state=0)
    assert [F.shape for F in factors] == [(12, 3), (12, 3)]
    np.testing.assert_allclose([np.linalg.norm(F, axis=1) for F in factors], 1.0)


def test_bad_inputs_name_the_fix(bags):
    with pytest.raises(InputError, match="n_components"):
        MixtureModelKernel(n_components=1000).fit(bags)
    with pytest.raises(InputError, match="features"):
        MinimaxKernel().fit(bags).transform(random_bags(seed=1, n_bags=3, n_features=2))
    with pytest.raises(InputError, match="same objects"):
        bag_kernel_matrices([bags, bags[np.arange(3)]], "minimax")
    with pytest.raises(InputError, match="list of BagDatasets"):
        bag_kernel_matrices(bags, "minimax")
    with pytest.raises(ValueError, match="'kernel' parameter of bag_kernel_matrices"):
        bag_kernel_matrices([bags], "rbf")
