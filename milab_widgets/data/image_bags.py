"""Real images turned into bags by four bag generators: the stand-in for the TwoViewMIC paper's NUS-WIDE.

NUS-WIDE (the paper's data: text + image views of 6-class subsets, images turned into bags by
K-means segmentation, LBP and SIFT bag generators, after Wei & Zhou, "An empirical study on
image bag generators for multi-instance learning", Machine Learning 105:155-198, 2016) cannot
be obtained here. The closest real data an installed package ships is scikit-learn's
handwritten digits (UCI "Optical Recognition of Handwritten Digits", 1797 images of 8 x 8
pixels, grey levels 0..16; ``sklearn.datasets.load_digits``). Each image becomes one object
seen in two views:

* first view, ``"patches"`` (stand-in for the text view): the raw pixels of every 4 x 4 patch
  at stride 2 (9 instances x 16 features);
* second view, by one of three generators mirroring the paper's:
  ``"kmeansseg"`` — k-means segmentation of the pixels in (intensity, row, column) space,
  one instance per segment: mean and std of its intensity, its centroid, its share of the
  image (<= 4 instances x 5 features);
  ``"lbp"`` — local binary patterns (8 neighbours at radius 1, rotation-invariant uniform
  codes, Ojala, Pietikäinen & Mäenpää, TPAMI 2002) histogrammed over every 4 x 4 patch at
  stride 2 (9 instances x 10 features);
  ``"sift"`` — SIFT-like descriptors (Lowe 2004): gradient-orientation histograms (8 bins,
  magnitude-weighted) of the 2 x 2 cells of every 4 x 4 patch at stride 2, normalised,
  clipped at 0.2 and renormalised (9 instances x 32 features).

These are digits, not web photos with tags: accuracies are not comparable with the paper's.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view
from sklearn.datasets import load_digits

from milab_widgets._sklearn_private import Interval, validate_params
from milab_widgets.data.bags import BagDataset
from milab_widgets.data.twoview_files import TwoViewBags
from milab_widgets.exceptions import InputError

__all__ = ["DIGIT_SUBSETS", "GENERATORS", "digits_two_view", "image_bags"]

#: The two 6-class subsets standing in for NUS-WIDE1 (mixed categories) and NUS-WIDE2 (six
#: kinds of one thing): digits 0-5 (as the issue suggests), and six digits that are often
#: confused with each other (1/7 and 3/5/8/9).
DIGIT_SUBSETS = {"digits-a": (0, 1, 2, 3, 4, 5), "digits-b": (1, 3, 5, 7, 8, 9)}
PATCH, STRIDE = 4, 2
DESCRIPTION = (
    "scikit-learn's handwritten digits (8 x 8 images) as bags: first view = raw 4 x 4 pixel "
    "patches; second view = k-means segments, LBP patches or SIFT-like patches. A real-image "
    "stand-in for NUS-WIDE, which is not obtainable here."
)


#: Declared sizes of the generators (scikit-learn's ``validate_params``): a string, 0 or 2.5
#: is refused naming the argument. SIFT's 2 x 2 cells need an even patch size >= 2.
POSITIVE_INT = Interval(Integral, 1, None, closed="left")
WINDOW = {"images": ["array-like"], "size": [POSITIVE_INT], "stride": [POSITIVE_INT]}


@validate_params(WINDOW, prefer_skip_nested_validation=True)
def patch_bags(images: np.ndarray, size: int = PATCH, stride: int = STRIDE) -> np.ndarray:
    """Raw pixel patches: (n_images, n_patches, size * size)."""
    windows = sliding_window_view(images, (size, size), axis=(1, 2))[:, ::stride, ::stride]
    return windows.reshape(len(images), -1, size * size)


def lbp_codes(images: np.ndarray) -> np.ndarray:
    """Rotation-invariant uniform LBP code (0..9) of every pixel, edges replicated.

    A pixel's 8 neighbours at radius 1 are thresholded at its value (>= gives 1). A pattern
    with at most two 0/1 transitions around the circle is "uniform" and coded by its number
    of ones (0..8); every other pattern is code 9.
    """
    padded = np.pad(images, ((0, 0), (1, 1), (1, 1)), mode="edge")
    rows, cols = images.shape[1:]
    ring = [(-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1)]
    bits = np.stack([padded[:, 1 + dr: 1 + dr + rows, 1 + dc: 1 + dc + cols] >= images
                     for dr, dc in ring], axis=-1).astype(np.int64)
    transitions = np.abs(bits - np.roll(bits, 1, axis=-1)).sum(axis=-1)
    return np.where(transitions <= 2, bits.sum(axis=-1), 9)


@validate_params(WINDOW, prefer_skip_nested_validation=True)
def lbp_bags(images: np.ndarray, size: int = PATCH, stride: int = STRIDE) -> np.ndarray:
    """Normalised histograms of LBP codes over each patch: (n_images, n_patches, 10)."""
    onehot = np.eye(10)[lbp_codes(images)]                 # (n, rows, cols, 10)
    windows = sliding_window_view(onehot, (size, size), axis=(1, 2))[:, ::stride, ::stride]
    return windows.mean(axis=(-2, -1)).reshape(len(images), -1, 10)


@validate_params({**WINDOW, "size": [Interval(Integral, 2, None, closed="left")],
                  "bins": [POSITIVE_INT]}, prefer_skip_nested_validation=True)
def sift_bags(images: np.ndarray, size: int = PATCH, stride: int = STRIDE,
              bins: int = 8) -> np.ndarray:
    """SIFT-like patch descriptors: (n_images, n_patches, 4 * bins).

    Gradients by central differences; each pixel votes its magnitude into the orientation
    bin of its gradient direction; each 4 x 4 patch concatenates the histograms of its four
    2 x 2 cells, L2-normalised, clipped at 0.2 and renormalised (Lowe 2004); a patch without
    gradient stays all zeros.
    """
    d_row, d_col = np.gradient(images, axis=(1, 2))
    magnitude = np.hypot(d_row, d_col)
    orientation = np.floor((np.arctan2(d_row, d_col) % (2 * np.pi)) / (2 * np.pi) * bins)
    votes = np.eye(bins)[np.minimum(orientation, bins - 1).astype(np.int64)] * magnitude[..., None]
    cell = size // 2
    windows = sliding_window_view(votes, (cell, cell), axis=(1, 2))[:, ::cell, ::cell]
    cells = windows.sum(axis=(-2, -1))
    step = stride // cell
    patches = sliding_window_view(cells, (2, 2), axis=(1, 2))[:, ::step, ::step]
    descriptors = np.moveaxis(patches, 3, -1).reshape(len(images), -1, 4 * bins)
    return _clip_normalise(descriptors)


@validate_params({"images": ["array-like"], "n_segments": [POSITIVE_INT],
                  "n_iter": [POSITIVE_INT]}, prefer_skip_nested_validation=True)
def kmeans_segment_bags(images: np.ndarray, n_segments: int = 4,
                        n_iter: int = 10) -> list[np.ndarray]:
    """One instance per k-means segment of each image: list of (n_segments_i, 5) arrays.

    Pixels are points (2 * intensity, row, column), all scaled to [0, 1] before the intensity
    is doubled (so grey level separates ink from paper before position does). Lloyd's
    algorithm runs on every image at once, started from the pixels at evenly spaced ranks of
    intensity (deterministic). Instance = (mean intensity, intensity std, centroid row,
    centroid column, share of pixels) of a non-empty segment.
    """
    n_images, rows, cols = images.shape
    grid_r, grid_c = np.meshgrid(np.arange(rows) / (rows - 1), np.arange(cols) / (cols - 1),
                                 indexing="ij")
    intensity = images.reshape(n_images, -1)
    points = np.stack([2 * intensity, *(np.broadcast_to(g.ravel(), intensity.shape)
                                        for g in (grid_r, grid_c))], axis=-1)
    ranks = np.argsort(intensity, axis=1, kind="stable")
    starts = ranks[:, np.linspace(0, rows * cols - 1, n_segments).astype(np.int64)]
    centres = np.take_along_axis(points, starts[..., None], axis=1)
    for _ in range(n_iter):
        assign = ((points[:, :, None] - centres[:, None]) ** 2).sum(-1).argmin(-1)
        member = np.eye(n_segments)[assign]                  # (n, pixels, segments)
        counts = member.sum(axis=1)
        sums = np.einsum("nps,npf->nsf", member, points)
        centres = np.where(counts[..., None] > 0, sums / np.maximum(counts, 1)[..., None], centres)
    return [_segment_instances(intensity[i], points[i], assign[i], n_segments)
            for i in range(n_images)]


def _segment_instances(intensity, points, assign, n_segments) -> np.ndarray:
    instances = []
    for s in range(n_segments):
        inside = assign == s
        if inside.any():
            values = intensity[inside]
            instances.append([values.mean(), values.std(), *points[inside, 1:].mean(axis=0),
                              inside.mean()])
    return np.array(instances)


#: Bag generator name -> function(images in [0, 1]) -> per-image instance arrays.
GENERATORS = {"patches": patch_bags, "kmeansseg": kmeans_segment_bags, "lbp": lbp_bags,
              "sift": sift_bags}
SECOND_VIEW_GENERATORS = ("kmeansseg", "lbp", "sift")


def image_bags(images, generator: str, labels=None, name: str = "") -> BagDataset:
    """Bags of ``generator``'s instances, one bag per image (grey levels scaled to [0, 1]).

    Parameters
    ----------
    images : array-like of shape (n_images, height, width)
        Grey-level images.
    generator : {"patches", "kmeansseg", "lbp", "sift"}
        How an image becomes instances: raw patches, k-means segments, LBP histograms of
        patches or SIFT-like patch descriptors.
    labels : array-like of shape (n_images,), default=None
        Bag labels.
    name : str, default=""
        The dataset's name.

    Returns
    -------
    BagDataset
        One bag per image.

    See Also
    --------
    digits_two_view : scikit-learn's digits as a two-view problem.

    Examples
    --------
    >>> import numpy as np
    >>> from milab_widgets.data.image_bags import image_bags
    >>> images = np.arange(128, dtype=float).reshape(2, 8, 8)
    >>> bags = image_bags(images, "lbp", labels=[0, 1])
    >>> len(bags), bags.instances.shape
    (2, (18, 10))
    """
    if generator not in GENERATORS:
        raise InputError(f"generator={generator!r} is not one of {list(GENERATORS)}.")
    images = np.asarray(images, dtype=np.float64)
    if images.ndim != 3 or min(images.shape[1:]) < PATCH:
        raise InputError(
            f"images must be an (n_images, rows, cols) array with rows, cols >= {PATCH}; "
            f"got shape {images.shape}."
        )
    peak = images.max()
    scaled = images / peak if peak > 0 else images
    return BagDataset.from_bags(list(GENERATORS[generator](scaled)), labels,
                                name=name or generator)


def digits_two_view(subset: str = "digits-a", generators=SECOND_VIEW_GENERATORS) -> TwoViewBags:
    """One of :data:`DIGIT_SUBSETS` as a TwoViewBags: first view "patches", second view by
    each of ``generators``. Classes are the digits, numbered in the subset's order.

    Parameters
    ----------
    subset : {"digits-a", "digits-b"}, default="digits-a"
        Digits 0-5, or six often confused digits (1, 3, 5, 7, 8, 9).
    generators : sequence of str, default=("kmeansseg", "lbp", "sift")
        The second views to build.

    Returns
    -------
    TwoViewBags
        1,083 (digits-a) objects; their classes are the digits.

    See Also
    --------
    image_bags : one view of images as bags.
    TwoViewMIClustering : the clustering of the TwoViewMIC experiments.

    Examples
    --------
    >>> from milab_widgets.data.image_bags import digits_two_view
    >>> data = digits_two_view("digits-a", generators=("lbp",))
    >>> len(data.labels), data.class_names, list(data.second)
    (1083, ('0', '1', '2', '3', '4', '5'), ['lbp'])
    """
    if subset not in DIGIT_SUBSETS:
        raise InputError(f"subset={subset!r} is not one of {list(DIGIT_SUBSETS)}.")
    digits = DIGIT_SUBSETS[subset]
    data = load_digits()
    keep = np.isin(data.target, digits)
    labels = np.array([digits.index(d) for d in data.target[keep]], dtype=np.int64)
    images = data.images[keep]
    return TwoViewBags(
        subset, labels, tuple(str(d) for d in digits), "patches",
        image_bags(images, "patches", labels, "patches"),
        {g: image_bags(images, g, labels, g) for g in generators},
        DESCRIPTION,
    )


def _clip_normalise(descriptors: np.ndarray, clip: float = 0.2) -> np.ndarray:
    """Lowe's normalisation: unit L2 norm, entries clipped at ``clip``, unit norm again."""
    return _unit_rows(np.minimum(_unit_rows(descriptors), clip))


def _unit_rows(vectors: np.ndarray) -> np.ndarray:
    """Each last-axis vector divided by its L2 norm (zero vectors stay zero)."""
    norms = np.linalg.norm(vectors, axis=-1, keepdims=True)
    return np.divide(vectors, norms, out=np.zeros_like(vectors), where=norms > 0)
