"""SYNTHETIC two-view bags with known clusters (for tests, demos and benchmarks; not a benchmark).

Each cluster k has, in each view v, a concept centre mu_k^v drawn from N(0, spread^2 I).
A bag of cluster k holds, in each view independently, 2..max_size instances: the first
ceil(size / 2) near the concept (N(mu_k^v, I)), the others background (N(0, spread^2 I),
shared by all clusters) — the multi-instance situation where only some instances say what
the bag is. Views have different dimensions, as a text and an image view would.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np

from milab_widgets._sklearn_private import Interval, validate_params
from milab_widgets.data.bags import BagDataset
from milab_widgets.data.twoview_files import TwoViewBags
from milab_widgets.exceptions import InputError

__all__ = ["synthetic_two_view_bags"]


@validate_params({"n_clusters": [Interval(Integral, 1, None, closed="left")],
                  "bags_per_cluster": [Interval(Integral, 1, None, closed="left")],
                  "n_features": ["array-like"],
                  "max_size": [Interval(Integral, 2, None, closed="left")],
                  "spread": [Interval(Real, 0, None, closed="neither")],
                  "seed": [Interval(Integral, 0, None, closed="left"), np.random.Generator,
                           None]}, prefer_skip_nested_validation=True)
def synthetic_two_view_bags(n_clusters: int = 3, bags_per_cluster: int = 30,
                            n_features=(4, 6), max_size: int = 6, spread: float = 4.0,
                            seed: int = 0) -> TwoViewBags:
    """A seeded TwoViewBags named "synthetic" with one second-view generator, "synthetic".

    Parameters
    ----------
    n_clusters, bags_per_cluster : int
        Objects are ordered cluster by cluster; labels = cluster number.
    n_features : (int, int)
        Dimensions of the first and the second view.
    max_size : int
        Bag sizes are uniform on 2..max_size, per bag and view.
    spread : float
        Standard deviation of the concept centres and the background, in units of the
        concepts' own (unit) standard deviation; larger is easier.
    seed : int

    Returns
    -------
    TwoViewBags
        n_clusters x bags_per_cluster objects in two views.

    See Also
    --------
    TwoViewMIClustering : clusters them.
    digits_two_view : a real-image two-view problem.

    Examples
    --------
    >>> from milab_widgets.data.synthetic_bags import synthetic_two_view_bags
    >>> data = synthetic_two_view_bags(n_clusters=2, bags_per_cluster=5, seed=0)
    >>> len(data.labels), data.first.n_features, data.second["synthetic"].n_features
    (10, 4, 6)
    """
    dims = np.asarray(n_features)
    if dims.shape != (2,) or dims.dtype.kind not in "iu" or (dims < 1).any():
        raise InputError(f"n_features must be two positive integers, the dimensions of the "
                         f"two views, e.g. (4, 6); got {n_features!r}.")
    rng = np.random.default_rng(seed)
    labels = np.repeat(np.arange(n_clusters), bags_per_cluster)
    views = [_view(rng, labels, d, max_size, spread, f"synthetic view {v + 1}")
             for v, d in enumerate(n_features)]
    return TwoViewBags(
        "synthetic", labels, tuple(f"cluster {k}" for k in range(n_clusters)), "synthetic-1",
        views[0], {"synthetic": views[1]},
        "SYNTHETIC data: Gaussian concept instances among shared background instances.",
    )


def _view(rng, labels, n_features, max_size, spread, name) -> BagDataset:
    centres = rng.normal(scale=spread, size=(labels.max() + 1, n_features))
    bags = []
    for label in labels:
        size = int(rng.integers(2, max_size + 1))
        n_concept = (size + 1) // 2
        concept = centres[label] + rng.normal(size=(n_concept, n_features))
        background = rng.normal(scale=spread, size=(size - n_concept, n_features))
        bags.append(np.vstack([concept, background]))
    return BagDataset.from_bags(bags, labels, name=name)
