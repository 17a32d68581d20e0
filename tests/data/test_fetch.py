"""fetch: download into the data home with sha256 checks, against a local HTTP server only."""

import hashlib

import pytest

from milab_widgets.data import fetch, load_dataset
from milab_widgets.data.fetch import ALREADY_PRESENT, DOWNLOADED
from milab_widgets.exceptions import ChecksumError, DatasetUnavailableError, UnknownDatasetError


def files_below(folder):
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def test_fetch_downloads_verifies_and_makes_the_dataset_loadable(
    empty_data_home, http_server, register_tiny_dataset
):
    spec = register_tiny_dataset("tiny")
    [result] = fetch("tiny", url=http_server.url)
    assert result.action == DOWNLOADED and result.url == f"{http_server.url}/mil/tiny.csv"
    assert result.path == empty_data_home / "mil" / "tiny.csv"
    assert hashlib.sha256(result.path.read_bytes()).hexdigest() == spec.files[0].sha256
    assert files_below(empty_data_home) == ["mil/tiny.csv"]  # no temporary file left
    assert load_dataset("tiny").bag_sizes.tolist() == [2, 1]


def test_fetch_is_idempotent_unless_forced(empty_data_home, http_server, register_tiny_dataset):
    register_tiny_dataset("tiny")
    fetch("tiny", url=http_server.url)
    [again] = fetch("TINY", url=http_server.url)
    assert again.action == ALREADY_PRESENT and len(http_server.requests) == 1
    [forced] = fetch("tiny", url=http_server.url, force=True)
    assert forced.action == DOWNLOADED and len(http_server.requests) == 2


def test_base_url_comes_from_the_environment_or_the_registry(
    empty_data_home, http_server, register_tiny_dataset, monkeypatch
):
    register_tiny_dataset("from_env")
    monkeypatch.setenv("MILAB_DATA_URL", http_server.url + "/")
    assert fetch("from_env")[0].url == f"{http_server.url}/mil/from_env.csv"
    monkeypatch.delenv("MILAB_DATA_URL")
    register_tiny_dataset("from_registry", url=f"{http_server.url}/mil/from_registry.csv")
    assert fetch("from_registry")[0].action == DOWNLOADED
    assert http_server.requests == ["/mil/from_env.csv", "/mil/from_registry.csv"]


def test_a_corrupt_data_home_copy_is_replaced(empty_data_home, http_server, register_tiny_dataset):
    spec = register_tiny_dataset("tiny")
    stale = empty_data_home / "mil" / "tiny.csv"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"1,1,0.0,0.0\n")
    assert fetch("tiny", url=http_server.url)[0].action == DOWNLOADED
    assert hashlib.sha256(stale.read_bytes()).hexdigest() == spec.files[0].sha256


def test_checksum_mismatch_discards_the_download(
    empty_data_home, http_server, register_tiny_dataset
):
    register_tiny_dataset("tampered", served=b"1,1,9.5,1.5\n")
    with pytest.raises(ChecksumError) as raised:
        fetch("tampered", url=http_server.url)
    assert "mil/tampered.csv" in str(raised.value) and "discarded" in str(raised.value)
    assert files_below(empty_data_home) == []


def test_http_404_is_a_clear_unavailable_error(empty_data_home, http_server, register_tiny_dataset):
    register_tiny_dataset("absent", served=None)
    with pytest.raises(DatasetUnavailableError) as raised:
        fetch("absent", url=http_server.url)
    message = str(raised.value)
    assert "HTTP 404" in message and f"{http_server.url}/mil/absent.csv" in message
    assert "milab fetch absent" in message
    assert files_below(empty_data_home) == []


def test_a_file_without_any_url_cannot_be_fetched(empty_data_home, register_tiny_dataset):
    register_tiny_dataset("offline")
    with pytest.raises(DatasetUnavailableError, match="No download URL.*MILAB_DATA_URL"):
        fetch("offline")


def test_unknown_name_is_rejected_before_any_download(empty_data_home, http_server):
    with pytest.raises(UnknownDatasetError, match="Did you mean 'musk[12]' or 'musk[12]'\\?"):
        fetch("musk", url=http_server.url)
    assert http_server.requests == []


def test_fetching_a_dataset_the_package_ships_downloads_nothing(empty_data_home, monkeypatch):
    from milab_widgets.data.fetch import SHIPPED

    def no_network(*args, **kwargs):
        raise AssertionError("fetch tried the network for a shipped dataset")

    monkeypatch.setattr("urllib.request.urlopen", no_network)
    results = fetch("musk1")
    assert [result.action for result in results] == [SHIPPED]
    assert results[0].path.is_file() and empty_data_home not in results[0].path.parents
    assert not empty_data_home.exists()  # no folder made in the data home


def test_a_failed_download_leaves_no_folder_behind(empty_data_home, http_server,
                                                   register_tiny_dataset):
    register_tiny_dataset("unserved", served=None)  # the server answers 404
    with pytest.raises(DatasetUnavailableError, match="Could not download"):
        fetch("unserved", url=http_server.url)
    assert not empty_data_home.exists()  # neither mil/ nor the data home itself
