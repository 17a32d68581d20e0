"""The paper's two artificial one-class sets (the CDVSE paper, §4.1), as seeded generators.

Both are synthetic 2-D data drawn afresh from ``seed``: 200 normal points and 50 outliers.

* **Square_noise**: normal = uniform on the square frame
  {x in [0.3, 2.7], y in [0.3, 0.6] U [2.4, 2.7]} U {x in [0.3, 0.6] U [2.4, 2.7], y in [0.3, 2.7]};
  outliers = uniform on [0, 3]^2 (some may fall on the frame, as in the paper).
* **Sine_noise**, in two readings (``reading``):

  - ``"text"``, as §4.1 states it (seed 002 L240): normal = 200 points uniform in [0, 3]^2,
    outliers = 50 points of {y = sin(2 pi x / 3) +- eps, eps ~ N(0, 1)}, x ~ U[0, 3]; the
    band is centred on y = 0, so about half of the outliers fall below the box and the
    rest among the normal points. The experiments judge the paper's claims on this set.
  - ``"band"`` (the default, our reading): by analogy with Square_noise the roles are
    swapped, normal = a noisy sine band y = 1.5 + sin(2 pi x / 3) + eps, eps ~ N(0, 0.1^2)
    (the offset puts the band in the middle of the box; an N(0, 1) noise would fill it and
    leave nothing to describe), outliers = uniform in the box. It makes the clearer picture
    and is reported beside the paper's reading.

  ``noise`` and ``offset`` override the reading's values (text: 1 and 0; band: 0.1, 1.5).
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np

from milab_widgets._sklearn_private import Interval, StrOptions, validate_params
from milab_widgets.data.oneclass import OneClassDataset

__all__ = ["SINE_READINGS", "sine_noise", "square_noise"]

_BOX = (0.0, 3.0)
_FRAME_OUTER = (0.3, 2.7)
_FRAME_WIDTH = 0.3
#: Declared argument constraints of the generators (scikit-learn's ``validate_params``).
_SIZES = {"n_normal": [Interval(Integral, 1, None, closed="left")],
          "n_outliers": [Interval(Integral, 0, None, closed="left")],
          "seed": [Interval(Integral, 0, None, closed="left"), np.random.Generator, None]}


def _uniform_box(n: int, rng: np.random.Generator) -> np.ndarray:
    return rng.uniform(*_BOX, size=(n, 2))


def _sine_band(n: int, noise: float, offset: float, rng: np.random.Generator) -> np.ndarray:
    x = rng.uniform(*_BOX, size=n)
    return np.column_stack([x, offset + np.sin(2 * np.pi * x / 3) + rng.normal(0, noise, n)])


def _labelled(normal: np.ndarray, outliers: np.ndarray, name: str) -> OneClassDataset:
    y = np.r_[np.ones(len(normal)), -np.ones(len(outliers))]
    return OneClassDataset(np.vstack([normal, outliers]), y, name, ("x", "y"))


#: Each Sine_noise reading's (band noise, band offset, band points are the normal ones).
SINE_READINGS = {"text": (1.0, 0.0, False), "band": (0.1, 1.5, True)}


@validate_params({**_SIZES, "noise": [Interval(Real, 0, None, closed="left"), None],
                  "offset": [Interval(Real, None, None, closed="neither"), None],
                  "reading": [StrOptions(set(SINE_READINGS))]},
                 prefer_skip_nested_validation=True)
def sine_noise(n_normal: int = 200, n_outliers: int = 50, noise: float | None = None,
               offset: float | None = None, seed: int = 0,
               reading: str = "band") -> OneClassDataset:
    """Synthetic Sine_noise: a sine band and uniform points in [0, 3]^2 (the CDVSE paper, §4.1).

    Parameters
    ----------
    n_normal : int, default=200
        Normal samples.
    n_outliers : int, default=50
        Outliers.
    noise : float, default=None
        Standard deviation of the band's noise; None: the reading's (text 1, band 0.1).
    offset : float, default=None
        Vertical offset of the sine; None: the reading's (text 0, band 1.5).
    seed : int, default=0
        Seeds the draw.
    reading : {"band", "text"}, default="band"
        "text": as §4.1 states it, normal uniform in the box and outliers on the band;
        "band": the roles swapped, normal on a narrow band (module notes).

    Returns
    -------
    OneClassDataset
        X of shape (n_normal + n_outliers, 2); y = +1 normal, -1 outlier.

    See Also
    --------
    square_noise : the other synthetic set.
    CDVSESVDD : the CDVSE paper's Figs. 2-3 draw its boundaries on these sets.

    Examples
    --------
    >>> from milab_widgets.data.synthetic_oneclass import sine_noise
    >>> data = sine_noise(n_normal=20, n_outliers=5, seed=0)
    >>> data.X.shape, int((data.y == -1).sum())
    ((25, 2), 5)
    >>> stated = sine_noise(seed=0, reading="text")
    >>> bool(((stated.normal.X >= 0) & (stated.normal.X <= 3)).all())
    True
    """
    rng = np.random.default_rng(seed)
    default_noise, default_offset, band_is_normal = SINE_READINGS[reading]
    noise = default_noise if noise is None else noise
    offset = default_offset if offset is None else offset
    if band_is_normal:
        return _labelled(_sine_band(n_normal, noise, offset, rng), _uniform_box(n_outliers, rng),
                         "sine_noise")
    return _labelled(_uniform_box(n_normal, rng), _sine_band(n_outliers, noise, offset, rng),
                     "sine_noise")


@validate_params(_SIZES, prefer_skip_nested_validation=True)
def square_noise(n_normal: int = 200, n_outliers: int = 50, seed: int = 0) -> OneClassDataset:
    """Synthetic Square_noise: uniform on a square frame (normal), uniform outliers in [0, 3]^2.

    Parameters
    ----------
    n_normal : int, default=200
        Normal samples.
    n_outliers : int, default=50
        Outliers, uniform in [0, 3]^2.
    seed : int, default=0
        Seeds the draw.

    Returns
    -------
    OneClassDataset
        X of shape (n_normal + n_outliers, 2); y = +1 normal, -1 outlier.

    See Also
    --------
    sine_noise : the other synthetic set.
    CDVSESVDD : the CDVSE paper's Figs. 2-3 draw its boundaries on these sets.

    Examples
    --------
    >>> from milab_widgets.data.synthetic_oneclass import square_noise
    >>> data = square_noise(n_normal=20, n_outliers=5, seed=0)
    >>> data.X.shape, int((data.y == -1).sum())
    ((25, 2), 5)
    """
    rng = np.random.default_rng(seed)
    low, high = _FRAME_OUTER
    normal = np.empty((0, 2))
    while len(normal) < n_normal:  # rejection sampling: the frame covers 44 % of its square
        points = rng.uniform(low, high, size=(2 * n_normal, 2))
        inner = (points > low + _FRAME_WIDTH) & (points < high - _FRAME_WIDTH)
        normal = np.vstack([normal, points[~inner.all(axis=1)]])
    return _labelled(normal[:n_normal], _uniform_box(n_outliers, rng), "square_noise")
