"""The paper's two artificial one-class sets (the CDVSE paper, §4.1), as seeded generators.

Both are synthetic 2-D data drawn afresh from ``seed``: 200 normal points and 50 outliers.

* **Square_noise**: normal = uniform on the square frame
  {x in [0.3, 2.7], y in [0.3, 0.6] U [2.4, 2.7]} U {x in [0.3, 0.6] U [2.4, 2.7], y in [0.3, 2.7]};
  outliers = uniform on [0, 3]^2 (some may fall on the frame, as in the paper).
* **Sine_noise**: the paper's text swaps the roles ("normal = uniform in [0, 3]^2, outliers on
  y = sin(2 pi x / 3) +- eps, eps ~ N(0, 1)"); by analogy with Square_noise the intended set is
  normal = a noisy sine band, outliers = uniform in the box. That reading is the default:
  x ~ U[0, 3], y = ``offset`` + sin(2 pi x / 3) + eps, eps ~ N(0, ``noise``^2), with
  ``offset`` = 1.5 putting the band in the middle of the box and ``noise`` = 0.1 (an N(0, 1)
  noise would fill the box and leave nothing to describe). ``literal=True`` gives the
  text's reading instead (normal uniform, outliers on the band).
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np

from milab_widgets._sklearn_private import Interval, validate_params
from milab_widgets.data.oneclass import OneClassDataset

__all__ = ["sine_noise", "square_noise"]

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


@validate_params({**_SIZES, "noise": [Interval(Real, 0, None, closed="left")],
                  "offset": [Interval(Real, None, None, closed="neither")],
                  "literal": ["boolean"]}, prefer_skip_nested_validation=True)
def sine_noise(n_normal: int = 200, n_outliers: int = 50, noise: float = 0.1,
               offset: float = 1.5, seed: int = 0, literal: bool = False) -> OneClassDataset:
    """Synthetic Sine_noise: a noisy sine band (normal) and uniform outliers in [0, 3]^2.

    Parameters
    ----------
    n_normal : int, default=200
        Normal samples.
    n_outliers : int, default=50
        Outliers, uniform in [0, 3]^2.
    noise : float, default=0.1
        Standard deviation of the band's noise.
    offset : float, default=1.5
        Vertical offset of the sine.
    literal : bool, default=False
        The text's reading instead: normal uniform, outliers on the band (module notes).
    seed : int, default=0
        Seeds the draw.

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
    """
    rng = np.random.default_rng(seed)
    if literal:
        return _labelled(_uniform_box(n_normal, rng), _sine_band(n_outliers, noise, offset, rng),
                         "sine_noise (literal)")
    return _labelled(_sine_band(n_normal, noise, offset, rng), _uniform_box(n_outliers, rng),
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
