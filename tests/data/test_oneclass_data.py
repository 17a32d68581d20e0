"""One-class data: OneClassDataset, the UCI registry entries (counts = the paper's Table 1), the
recipes' details, and the seeded synthetic generators."""

import numpy as np
import pytest

from milab_widgets.data import list_datasets
from milab_widgets.data.oneclass import OneClassDataset
from milab_widgets.data.registry import get_spec
from milab_widgets.data.synthetic_oneclass import sine_noise, square_noise
from milab_widgets.data.uci_sources import ONECLASS_DATASETS, UNAVAILABLE
from milab_widgets.exceptions import InputError

#: Seed Table 1: features, normal, outliers.
TABLE1 = {"cancer": (9, 444, 239), "breast_cancer": (9, 186, 77), "cleveland_heart": (13, 83, 214),
          "diabetes": (8, 500, 268), "german": (20, 700, 300), "heart": (13, 150, 120),
          "hepatitis": (19, 123, 32), "housing": (13, 261, 245), "liver": (6, 145, 200),
          "pima": (8, 500, 268), "sonar": (60, 97, 111), "thyroid": (5, 150, 65)}


@pytest.mark.realdata
@pytest.mark.parametrize("name", sorted(TABLE1))
def test_class_counts_equal_seed_table_1(require_dataset, name):
    data = require_dataset(name)
    assert isinstance(data, OneClassDataset)
    assert (data.n_features, data.n_normal, data.n_outliers) == TABLE1[name]
    assert data.X.dtype == np.float64 and np.isfinite(data.X).all()
    assert not data.X.flags.writeable and len(data.feature_names) == data.n_features
    counts = get_spec(name).counts
    assert (counts["samples"], counts["features"], counts["normal"], counts["outliers"]) == (
        len(data), *TABLE1[name])


def test_registry_lists_the_twelve_obtainable_sets_and_flare_solar_is_explained():
    assert {spec.name for spec in ONECLASS_DATASETS} == set(TABLE1)
    assert "flare_solar" in UNAVAILABLE and "94" in UNAVAILABLE["flare_solar"]
    table = list_datasets().set_index("name")
    assert (table.loc[list(TABLE1), "kind"] == "oneclass").all()
    assert table.loc["sonar", ["features", "normal", "outliers"]].tolist() == [60, 97, 111]
    for spec in ONECLASS_DATASETS:
        assert spec.files[0].relpath.startswith(f"uci/{spec.name}/")
        assert spec.files[0].url or spec.how_to_get
        assert spec.source_url.startswith("https://") and spec.citation


@pytest.mark.realdata
def test_recipe_details(require_dataset):
    german = require_dataset("german")  # "A11".."A14" -> 1..4 in checking_status
    assert set(german.X[:, 0]) == {1, 2, 3, 4}
    housing = require_dataset("housing")  # MEDV is the label, not a feature
    assert housing.n_features == 13
    heart = require_dataset("heart")  # oldpeak back in the UCI units (0 .. 6.2)
    assert heart.X[:, 9].max() == pytest.approx(6.2)
    breast = require_dataset("breast_cancer")  # "40-49" -> 40, unique rows
    assert set(breast.X[:, 0]) <= {20, 30, 40, 50, 60, 70}
    assert len(np.unique(np.c_[breast.X, breast.y], axis=0)) == len(breast)


def test_one_class_dataset_validates_and_slices():
    data = OneClassDataset([[0.0, 1.0], [2.0, 3.0], [9.0, 9.0]], [1, 1, -1], "toy")
    assert data.outliers.X.tolist() == [[9.0, 9.0]] and data[[0]].n_normal == 1
    assert "2 normal / 1 outlier" in repr(data)
    with pytest.raises(InputError, match="y must hold"):
        OneClassDataset([[0.0]], [0])
    with pytest.raises(InputError, match="NaN or infinity"):
        OneClassDataset([[np.nan]], [1])
    with pytest.raises(InputError, match="y must hold"):
        OneClassDataset([[0.0]], [1.7])  # not cast to 1 before the check
    with pytest.raises(InputError, match="one label per sample"):
        OneClassDataset([[0.0], [1.0]], [1])
    with pytest.raises(InputError, match="feature_names"):
        OneClassDataset([[0.0]], [1], feature_names=["a", "b"])


def _in_frame(points):
    inside_outer = ((points >= 0.3) & (points <= 2.7)).all(axis=1)
    in_hole = ((points > 0.6) & (points < 2.4)).all(axis=1)
    return inside_outer & ~in_hole


def test_square_noise_is_a_frame_with_uniform_outliers():
    data = square_noise(seed=3)
    assert (data.n_normal, data.n_outliers) == (200, 50)
    assert _in_frame(data.normal.X).all()
    assert ((data.outliers.X >= 0) & (data.outliers.X <= 3)).all()
    np.testing.assert_array_equal(square_noise(seed=3).X, data.X)
    assert not np.array_equal(square_noise(seed=4).X, data.X)


def test_sine_noise_band_reading_puts_the_normal_points_on_a_narrow_band():
    data = sine_noise(seed=1)
    x, y = data.normal.X.T
    residual = y - 1.5 - np.sin(2 * np.pi * x / 3)
    assert abs(residual.std() - 0.1) < 0.02 and (data.n_normal, data.n_outliers) == (200, 50)
    assert ((data.outliers.X >= 0) & (data.outliers.X <= 3)).all()


def test_sine_noise_text_reading_is_the_set_as_section_4_1_states_it():
    data = sine_noise(seed=1, reading="text")
    # normal: 200 points uniform in [0, 3]^2 (mean 1.5, sd 3 / sqrt(12) = 0.87 per axis)
    assert ((data.normal.X >= 0) & (data.normal.X <= 3)).all() and data.n_normal == 200
    np.testing.assert_allclose(data.normal.X.std(axis=0), 3 / np.sqrt(12), atol=0.1)
    # outliers: y = sin(2 pi x / 3) + N(0, 1) around no offset (50 draws: sd of the sd ~ 0.1)
    x, y = data.outliers.X.T
    residual = y - np.sin(2 * np.pi * x / 3)
    assert data.n_outliers == 50 and abs(residual.std() - 1.0) < 0.3
    assert abs(residual.mean()) < 0.45  # 3 standard errors
    assert (y < 0).any()  # the text's band is centred on y = 0, partly below the box


def test_sine_noise_noise_and_offset_override_the_readings_values():
    wide = sine_noise(seed=2, noise=0.5, offset=1.0)
    x, y = wide.normal.X.T
    assert abs((y - 1.0 - np.sin(2 * np.pi * x / 3)).std() - 0.5) < 0.08
    with pytest.raises(ValueError, match="reading"):
        sine_noise(reading="literal")
