"""What the registry records about a dataset: its files, where they come from, how to read it.

Kept apart from :mod:`milab_widgets.data.registry` so that each kind's source module
(``mil``, one-class UCI, multi-label) can declare its specs without importing the registry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["DataFile", "PackageSource", "DatasetSpec"]

#: ``loader(paths, name)``: the located files (in ``DatasetSpec.files`` order) -> a dataset.
Loader = Callable[[Sequence[Path], str], Any]


@dataclass(frozen=True)
class DataFile:
    """One file of a dataset.

    Parameters
    ----------
    relpath : str
        Path below the data home, with forward slashes (e.g. ``"mil/fte.zip"``).
    sha256 : str
        Hex digest every copy must match.
    url : str or None
        Where ``milab fetch`` downloads it from by default (None: no public download).

    See Also
    --------
    DatasetSpec : a dataset's files and provenance.
    fetch : downloads and checks the files.

    Examples
    --------
    >>> from milab_widgets.data import dataset_info
    >>> dataset_info("fox").files[0].relpath
    'mil/fte.zip'
    """

    relpath: str
    sha256: str
    url: str | None = None

    @property
    def file_name(self) -> str:
        return self.relpath.rsplit("/", 1)[-1]


@dataclass(frozen=True)
class PackageSource:
    """An installed Python package that ships a dataset's files.

    A file ``DataFile("mil/musk1.csv", ...)`` is found at
    ``importlib.resources.files(package) / folder / "musk1.csv"``.

    Parameters
    ----------
    package : str
        Importable package holding the files; only its (empty) ``__init__`` modules are
        imported, never the rest of the distribution.
    folder : str
        Sub-folder of ``package`` holding the files.
    install : str
        The command that installs it, for error messages.
    """

    package: str
    folder: str
    install: str


@dataclass(frozen=True)
class DatasetSpec:
    """Everything the library knows about one dataset without reading it.

    Parameters
    ----------
    name : str
        Lower-case registry key (``load_dataset`` matches case-insensitively).
    kind : str
        ``"mil"`` (bags, :class:`~milab_widgets.data.bags.BagDataset`), ``"oneclass"``
        (``OneClassDataset``) or ``"multilabel"`` (``MultiLabelDataset``).
    files : tuple of DataFile
        The files the loader reads.
    source_url : str
        Where the data was obtained (provenance, shown in tables and errors).
    citation : str
        The paper(s) to cite when using the data.
    description : str
        What the data is, and its caveats.
    loader : callable
        ``loader(paths, name)`` -> dataset, with ``paths`` in ``files`` order.
    package_source : PackageSource or None
        An installed package that also ships the files (used when the data home lacks them).
    how_to_get : str
        Another way to get the files, beyond ``milab fetch NAME``: an instruction in lower
        case that follows "Fix: ..., or " in the errors (``"make it by hand: ..."``).
    counts : mapping of str to int
        Recorded shape of the data (for ``mil``: bags, instances, features, positives,
        negatives), so tables need not load every dataset; tests check them against the
        loaded data.

    See Also
    --------
    dataset_info : the entry of one dataset.
    list_datasets : every entry as a table.

    Examples
    --------
    >>> from milab_widgets.data import dataset_info
    >>> spec = dataset_info("yeast")
    >>> spec.kind, spec.counts["labels"], len(spec.files)
    ('multilabel', 14, 3)
    """

    name: str
    kind: str
    files: tuple[DataFile, ...]
    source_url: str
    citation: str
    description: str
    loader: Loader
    package_source: PackageSource | None = None
    how_to_get: str = ""
    counts: Mapping[str, int] = field(default_factory=dict, hash=False)
