"""Download a dataset's files into the data home, checking each against its sha256.

Each file goes to a temporary file in its destination folder, is hashed while it streams,
and is renamed into place only when the hash matches, so an interrupted or corrupt download
never leaves a file that looks valid.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from milab_widgets.data.home import IN_PACKAGE, find_file, home_path, sha256_of
from milab_widgets.data.registry import DataFile, DatasetSpec, get_spec
from milab_widgets.exceptions import ChecksumError, DatasetUnavailableError

__all__ = ["FetchedFile", "fetch"]

ENV_DATA_URL = "MILAB_DATA_URL"
DOWNLOADED, ALREADY_PRESENT = "downloaded", "already present"
#: A file the installed package already ships (and verifies): nothing is downloaded.
SHIPPED = "ships with the installed package: nothing to fetch"
_TIMEOUT_SECONDS = 60
_BLOCK_BYTES = 1 << 20


@dataclass(frozen=True)
class FetchedFile:
    """What ``fetch`` did for one file: ``action`` is DOWNLOADED, ALREADY_PRESENT or
    SHIPPED (``path`` is then the package's copy, which is read as it is)."""

    relpath: str
    path: Path
    action: str
    url: str | None


def fetch(name: str, *, force: bool = False, url: str | None = None) -> list[FetchedFile]:
    """Make dataset ``name`` available in the data home, downloading what is missing.

    Parameters
    ----------
    name : str
        Registered dataset name (case-insensitive).
    force : bool
        Download even files already present and valid, and files the installed package
        ships (to put a copy in the data home).
    url : str, optional
        Base URL to which each file's relative path is appended (e.g. a mirror of the
        benchmark folder). Defaults to ``$MILAB_DATA_URL``, else each file's registered URL.

    Returns
    -------
    list of FetchedFile
        One record per file of the dataset.

    Raises
    ------
    UnknownDatasetError
        ``name`` is not registered.
    DatasetUnavailableError
        A download failed (HTTP error, no network, no URL); nothing is left behind, not
        even the folders made for it.
    ChecksumError
        A downloaded file's sha256 differs from the registry's; it is deleted.
    """
    spec = get_spec(name)
    base_url = url or os.environ.get(ENV_DATA_URL) or None
    return [_fetch_file(spec, data_file, base_url, force) for data_file in spec.files]


def _fetch_file(
    spec: DatasetSpec, data_file: DataFile, base_url: str | None, force: bool
) -> FetchedFile:
    target = home_path(data_file)
    if not force and target.is_file() and sha256_of(target) == data_file.sha256:
        return FetchedFile(data_file.relpath, target, ALREADY_PRESENT, None)
    shipped, origin = find_file(spec, data_file)
    if not force and origin == IN_PACKAGE and sha256_of(shipped) == data_file.sha256:
        return FetchedFile(data_file.relpath, shipped, SHIPPED, None)
    source = _download_url(spec, data_file, base_url)
    _download_verified(source, target, data_file, spec.name)
    return FetchedFile(data_file.relpath, target, DOWNLOADED, source)


def _download_url(spec: DatasetSpec, data_file: DataFile, base_url: str | None) -> str:
    if base_url:
        return f"{base_url.rstrip('/')}/{data_file.relpath}"
    if data_file.url:
        return data_file.url
    how = (spec.how_to_get or f"obtain it from {spec.source_url}").rstrip(".")
    raise DatasetUnavailableError(
        f"Dataset {spec.name!r} cannot be downloaded. No download URL is registered for "
        f"{data_file.relpath}. Fix: {how}; or, with a mirror holding {data_file.relpath}, "
        f"run `milab fetch {spec.name} --url MIRROR_URL` (or set {ENV_DATA_URL}; from "
        "Python: fetch(name, url=...))."
    )


def _download_verified(url: str, target: Path, data_file: DataFile, dataset: str) -> None:
    """Stream ``url`` to a temporary file next to ``target``, check it, rename it in place;
    on failure the folders made for it are removed again."""
    made = [folder for folder in (target.parent, *target.parent.parents) if not folder.exists()]
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(
        dir=target.parent, prefix=f".{target.name}.", suffix=".part", delete=False
    ) as partial:
        partial_path = Path(partial.name)
    try:
        _receive(url, partial_path, target, data_file, dataset)
    except BaseException:
        partial_path.unlink(missing_ok=True)
        for folder in made:  # innermost first
            if folder.exists() and not any(folder.iterdir()):
                folder.rmdir()
        raise


def _receive(url: str, partial_path: Path, target: Path, data_file: DataFile,
             dataset: str) -> None:
    """Download into ``partial_path``, check its sha256, then rename it to ``target``."""
    actual = _stream_to(url, partial_path, data_file, dataset)
    if actual != data_file.sha256:
        raise ChecksumError(
            f"Downloaded {data_file.relpath} from {url} has sha256 {actual}, but the "
            f"registry expects {data_file.sha256}; the download was discarded. Fix: retry "
            f"`milab fetch {dataset}`; if it persists the source changed: use a mirror "
            f"(--url / {ENV_DATA_URL}) holding the registered file."
        )
    partial_path.chmod(0o644)  # NamedTemporaryFile creates it owner-only
    os.replace(partial_path, target)


def _stream_to(url: str, path: Path, data_file: DataFile, dataset: str) -> str:
    """Write the body of ``url`` to ``path``; return its sha256."""
    digest = hashlib.sha256()
    try:
        with (urllib.request.urlopen(url, timeout=_TIMEOUT_SECONDS) as response,
              open(path, "wb") as out):
            for block in iter(lambda: response.read(_BLOCK_BYTES), b""):
                digest.update(block)
                out.write(block)
    except (urllib.error.URLError, TimeoutError, ValueError) as error:
        raise DatasetUnavailableError(
            f"Could not download {data_file.relpath} of dataset {dataset!r} from {url}: "
            f"{_reason(error)}. Fix: check the network and the URL (--url / {ENV_DATA_URL}), "
            f"then run `milab fetch {dataset}` again, or put the file at "
            f"{home_path(data_file)} yourself."
        ) from error
    return digest.hexdigest()


def _reason(error: Exception) -> str:
    if isinstance(error, urllib.error.HTTPError):
        return f"HTTP {error.code} {error.reason}"
    if isinstance(error, urllib.error.URLError):
        return str(error.reason)
    return str(error)
