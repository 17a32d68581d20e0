"""Image bag generators against per-pixel / per-patch loops; the digits two-view stand-in."""

import numpy as np
import pytest
from sklearn.datasets import load_digits

from milab_widgets.data.image_bags import (
    DIGIT_SUBSETS,
    digits_two_view,
    image_bags,
    kmeans_segment_bags,
    lbp_bags,
    lbp_codes,
    patch_bags,
    sift_bags,
)
from milab_widgets.exceptions import InputError


@pytest.fixture(scope="module")
def images():
    return np.random.default_rng(0).uniform(size=(3, 8, 8))


def corners(size=4, stride=2, n=8):
    return [(r, c) for r in range(0, n - size + 1, stride) for c in range(0, n - size + 1, stride)]


def test_patches_are_the_raw_pixels_of_each_window(images):
    bags = patch_bags(images)
    for i, image in enumerate(images):
        expected = [image[r:r + 4, c:c + 4].ravel() for r, c in corners()]
        np.testing.assert_array_equal(bags[i], expected)


def brute_lbp(image):
    padded = np.pad(image, 1, mode="edge")
    ring = [(-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1)]
    codes = np.zeros(image.shape, dtype=int)
    for r in range(image.shape[0]):
        for c in range(image.shape[1]):
            bits = [int(padded[r + 1 + dr, c + 1 + dc] >= image[r, c]) for dr, dc in ring]
            changes = sum(bits[k] != bits[k - 1] for k in range(8))
            codes[r, c] = sum(bits) if changes <= 2 else 9
    return codes


def test_lbp_codes_and_histograms_follow_the_definition(images):
    for i, image in enumerate(images):
        codes = brute_lbp(image)
        np.testing.assert_array_equal(lbp_codes(images)[i], codes)
        expected = [np.bincount(codes[r:r + 4, c:c + 4].ravel(), minlength=10) / 16
                    for r, c in corners()]
        np.testing.assert_allclose(lbp_bags(images)[i], expected)


def brute_sift(image, bins=8):
    d_row, d_col = np.gradient(image)
    magnitude = np.hypot(d_row, d_col)
    angle = np.arctan2(d_row, d_col) % (2 * np.pi)
    descriptors = []
    for r, c in corners():
        histogram = []
        for cr, cc in [(0, 0), (0, 2), (2, 0), (2, 2)]:
            cell = np.zeros(bins)
            for dr in range(2):
                for dc in range(2):
                    y, x = r + cr + dr, c + cc + dc
                    cell[min(int(angle[y, x] / (2 * np.pi) * bins), bins - 1)] += magnitude[y, x]
            histogram.extend(cell)
        v = np.array(histogram)
        v = v / np.linalg.norm(v) if v.any() else v
        v = np.minimum(v, 0.2)
        descriptors.append(v / np.linalg.norm(v) if v.any() else v)
    return np.array(descriptors)


def test_sift_descriptors_follow_the_definition(images):
    for i, image in enumerate(images):
        np.testing.assert_allclose(sift_bags(images)[i], brute_sift(image), atol=1e-12)
    flat = sift_bags(np.zeros((1, 8, 8)))
    assert not flat.any()


def test_kmeans_segments_partition_each_image(images):
    bags = kmeans_segment_bags(images)
    for image, bag in zip(images, bags, strict=True):
        assert 1 <= len(bag) <= 4 and bag.shape[1] == 5
        assert bag[:, 4].sum() == pytest.approx(1.0)            # pixel shares
        assert (bag[:, 4] * bag[:, 0]).sum() == pytest.approx(image.mean())  # weighted means
        assert ((bag[:, 2:4] >= 0) & (bag[:, 2:4] <= 1)).all()
    again = kmeans_segment_bags(images)
    assert all(np.array_equal(a, b) for a, b in zip(bags, again, strict=True))


def test_digits_two_view_is_sklearns_digits_as_bags():
    data = digits_two_view("digits-a")
    digits = load_digits()
    keep = np.isin(digits.target, DIGIT_SUBSETS["digits-a"])
    np.testing.assert_array_equal(data.labels, digits.target[keep])  # digits 0-5 keep their numbers
    assert data.generators == ["kmeansseg", "lbp", "sift"] and data.first_name == "patches"
    first_bag = digits.images[keep][0] / 16.0
    np.testing.assert_allclose(data.first.bag(0)[0], first_bag[:4, :4].ravel())
    for view in [data.first, *data.second.values()]:
        assert len(view) == keep.sum() and np.array_equal(view.labels, data.labels)
    other = digits_two_view("digits-b", generators=("lbp",))
    assert other.class_names == ("1", "3", "5", "7", "8", "9") and other.generators == ["lbp"]


def test_bad_inputs():
    with pytest.raises(InputError, match="generator="):
        image_bags(np.zeros((2, 8, 8)), "hog")
    with pytest.raises(InputError, match="rows, cols"):
        image_bags(np.zeros((2, 3, 3)), "patches")
    with pytest.raises(InputError, match="subset="):
        digits_two_view("digits-z")
