import numpy as np
import pytest
from scipy.spatial.distance import cdist

from milab_widgets.data.bags import BagDataset


def random_bags(seed: int, n_bags: int, n_features: int = 4, max_size: int = 6, shift=100.0):
    """Bags of 1..max_size Gaussian instances far from the origin (to exercise centring)."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, max_size + 1, size=n_bags)
    bags = [rng.normal(size=(s, n_features)) * 10 + shift for s in sizes]
    labels = np.arange(n_bags) % 2
    return BagDataset.from_bags(bags, labels)


def bags_with_a_concept(seed: int, n_bags: int, concept_shift: float) -> BagDataset:
    """random_bags centred at 0 whose positive bags each have their first instance shifted
    by ``concept_shift``: the multi-instance assumption, learnable by neighbour methods."""
    bags = random_bags(seed, n_bags, shift=0.0)
    instances = bags.instances.copy()
    instances[bags.offsets[:-1][bags.labels == 1]] += concept_shift
    return bags.with_instances(instances)


def brute_force_distances(X: BagDataset, Y: BagDataset):
    """min/max/average Hausdorff by the definitions, one scipy cdist block per bag pair."""
    out = {kind: np.zeros((len(X), len(Y))) for kind in ("min", "max", "average")}
    for i, a in enumerate(X):
        for j, b in enumerate(Y):
            block = cdist(a, b)
            row_minima, col_minima = block.min(axis=1), block.min(axis=0)
            out["min"][i, j] = block.min()
            out["max"][i, j] = max(row_minima.max(), col_minima.max())
            out["average"][i, j] = (row_minima.sum() + col_minima.sum()) / (len(a) + len(b))
    return out


@pytest.fixture
def small_bags():
    return random_bags(seed=1, n_bags=14)
