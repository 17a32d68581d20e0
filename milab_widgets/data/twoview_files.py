"""Two-view bag collections (`TwoViewBags`) and the folder format users store them in.

The TwoViewMIC paper clusters objects seen in two views: a first view (NUS-WIDE's text) and a second view
produced by one of several bag generators (K-means segmentation, LBP, SIFT bags of the
image). A `TwoViewBags` holds exactly that: the true classes, the first view, and the second
view by each generator. The problem for generator g is ``data.views(g) == [first, second[g]]``.

Folder format (what :func:`read_two_view_folder` reads and :func:`write_two_view_folder`
writes), for example for NUS-WIDE-derived bags::

    my_nuswide/
      labels.csv              bag_id,label            one row per object, in the order used
      view1_text.csv          bag_id,f1,...,fd        one row per instance of the first view
      view2_kmeansseg.csv     bag_id,f1,...,fd'       one row per instance, one file per
      view2_lbp.csv                                   bag generator of the second view
      view2_sift.csv

* Every file is a CSV with a header row. The first column is named ``bag_id``.
* ``labels.csv``: one row per object, unique bag ids; ``label`` is the true class (any text
  or integer; classes are numbered in sorted order). Used only for scoring and for drawing
  the labelled few.
* Exactly one ``view1_<name>.csv`` and at least one ``view2_<name>.csv``. Their other columns
  are numeric features (their names are free; views may have different numbers of features).
  Every object of ``labels.csv`` needs at least one instance in every view, and every
  instance's bag id must be in ``labels.csv``. A bag's rows need not be contiguous; they are
  kept in file order.

Any violation raises :class:`~milab_widgets.exceptions.DataFormatError` naming the file and
the fix.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from milab_widgets.data.bags import BagDataset
from milab_widgets.exceptions import DataFormatError, InputError

__all__ = ["TwoViewBags", "read_two_view_folder", "write_two_view_folder"]

LABELS_FILE = "labels.csv"
FIRST_PREFIX, SECOND_PREFIX = "view1_", "view2_"


@dataclass
class TwoViewBags:
    """Objects seen in a first view and in a second view by one or more bag generators.

    Attributes
    ----------
    name : str
    labels : int64 array (n_objects,)
        True classes 0..n_classes-1 (for scoring; clustering never sees them all).
    class_names : tuple of str
        Name of class k at position k.
    first_name : str
        Name of the first view (e.g. "text", "patches").
    first : BagDataset
    second : dict generator name -> BagDataset
        The second view by each bag generator, objects in the same order.
    description : str
        Where the data comes from (shown in notebooks and panels).

    Parameters
    ----------
    name, labels, class_names, first_name, first, second, description
        The attributes below.

    See Also
    --------
    read_two_view_folder, write_two_view_folder : the folder format.
    synthetic_two_view_bags, digits_two_view : the TwoViewMIC experiments' problems.

    Examples
    --------
    >>> from milab_widgets.data.synthetic_bags import synthetic_two_view_bags
    >>> data = synthetic_two_view_bags(n_clusters=2, bags_per_cluster=5, seed=0)
    >>> first, second = data.views("synthetic")
    >>> len(first) == len(second) == 10
    True
    >>> data.subset([1]).labels.tolist()      # class 1 only, renumbered
    [0, 0, 0, 0, 0]
    """

    name: str
    labels: np.ndarray
    class_names: tuple
    first_name: str
    first: BagDataset
    second: dict
    description: str = field(default="")

    def __post_init__(self):
        self.labels = np.asarray(self.labels, dtype=np.int64)
        n_objects = len(self.labels)
        if not self.second:
            raise InputError("a TwoViewBags needs at least one second-view bag generator.")
        for view_name, view in [(self.first_name, self.first), *self.second.items()]:
            if not isinstance(view, BagDataset) or len(view) != n_objects:
                raise InputError(
                    f"view {view_name!r} must be a BagDataset of {n_objects} bags (one per "
                    "label), in the same object order."
                )

    @property
    def generators(self) -> list[str]:
        return list(self.second)

    @property
    def n_classes(self) -> int:
        return len(self.class_names)

    def views(self, generator: str) -> list[BagDataset]:
        """The two views of one problem: the first view and the second by ``generator``.

        Parameters
        ----------
        generator : str
            A key of ``second``.

        Returns
        -------
        list of BagDataset
            ``[first, second[generator]]``.
        """
        if generator not in self.second:
            raise InputError(f"generator={generator!r} is not one of {self.generators}.")
        return [self.first, self.second[generator]]

    def subset(self, classes) -> TwoViewBags:
        """The objects of the given classes, renumbered 0, 1, ...

        Parameters
        ----------
        classes : sequence of int
            Class numbers (positions in ``class_names``).

        Returns
        -------
        TwoViewBags
            Those objects, in both views.
        """
        classes = list(classes)
        keep = np.isin(self.labels, classes)
        if not keep.any():
            raise InputError(f"no object belongs to classes {classes}.")
        renumber = {old: new for new, old in enumerate(classes)}
        labels = np.array([renumber[c] for c in self.labels[keep]], dtype=np.int64)
        return TwoViewBags(
            f"{self.name} [{', '.join(self.class_names[c] for c in classes)}]", labels,
            tuple(self.class_names[c] for c in classes), self.first_name,
            _relabelled(self.first[keep], labels),
            {g: _relabelled(view[keep], labels) for g, view in self.second.items()},
            self.description,
        )


def read_two_view_folder(folder, name: str | None = None) -> TwoViewBags:
    """Read a two-view folder (format in the module docstring).

    Raises
    ------
    DataFormatError
        A missing or malformed file: no labels.csv, not exactly one view1_ file, no view2_
        file, a missing ``bag_id`` column, duplicate or unknown bag ids, objects without
        instances, non-numeric or missing feature values.

    Parameters
    ----------
    folder : str or Path
        The folder holding labels.csv, one view1_ file and view2_ files.
    name : str, default=None
        The dataset's name; None means the folder's name.

    Returns
    -------
    TwoViewBags
        The objects and their views.

    See Also
    --------
    write_two_view_folder : the inverse.

    Examples
    --------
    >>> import tempfile
    >>> from milab_widgets.data.twoview_files import read_two_view_folder, write_two_view_folder
    >>> from milab_widgets.data.synthetic_bags import synthetic_two_view_bags
    >>> data = synthetic_two_view_bags(n_clusters=2, bags_per_cluster=5, seed=0)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     written = write_two_view_folder(data, folder)
    ...     again = read_two_view_folder(written)
    >>> again.labels.tolist() == data.labels.tolist()
    True
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise DataFormatError(
            f"{folder} is not a folder; a two-view dataset is a folder holding labels.csv, "
            "one view1_<name>.csv and one or more view2_<name>.csv files."
        )
    labels_table = _read_table(folder / LABELS_FILE)
    if "label" not in labels_table.columns or labels_table["label"].isna().any():
        raise DataFormatError(
            f"{folder / LABELS_FILE} needs a 'label' column with a class for every object."
        )
    bag_ids = labels_table["bag_id"].to_numpy()
    class_names, labels = np.unique(labels_table["label"].astype(str).to_numpy(),
                                    return_inverse=True)
    first_files, second_files = _view_files(folder)
    first_name = first_files[0].stem[len(FIRST_PREFIX):]
    return TwoViewBags(
        name or folder.name, labels, tuple(class_names.tolist()), first_name,
        _read_view(first_files[0], bag_ids, labels),
        {path.stem[len(SECOND_PREFIX):]: _read_view(path, bag_ids, labels)
         for path in second_files},
        f"user-supplied two-view bags from {folder}",
    )


def write_two_view_folder(data: TwoViewBags, folder) -> Path:
    """Write ``data`` in the folder format (the inverse of :func:`read_two_view_folder`).

    Parameters
    ----------
    data : TwoViewBags
        The objects to write.
    folder : str or Path
        Where to write (created if needed).

    Returns
    -------
    Path
        The folder written.

    See Also
    --------
    read_two_view_folder : the inverse.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from milab_widgets.data.twoview_files import write_two_view_folder
    >>> from milab_widgets.data.synthetic_bags import synthetic_two_view_bags
    >>> data = synthetic_two_view_bags(n_clusters=2, bags_per_cluster=5, seed=0)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     names = sorted(path.name for path in write_two_view_folder(data, folder).iterdir())
    >>> names[0]
    'labels.csv'
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    ids = data.first.bag_ids
    pd.DataFrame({"bag_id": ids, "label": np.asarray(data.class_names)[data.labels]}).to_csv(
        folder / LABELS_FILE, index=False)
    _write_view(data.first, ids, folder / f"{FIRST_PREFIX}{data.first_name}.csv")
    for generator, view in data.second.items():
        _write_view(view, ids, folder / f"{SECOND_PREFIX}{generator}.csv")
    return folder


def _view_files(folder: Path) -> tuple[list[Path], list[Path]]:
    first = sorted(folder.glob(f"{FIRST_PREFIX}*.csv"))
    second = sorted(folder.glob(f"{SECOND_PREFIX}*.csv"))
    if len(first) != 1 or not second:
        raise DataFormatError(
            f"{folder} holds {len(first)} view1_*.csv and {len(second)} view2_*.csv files; "
            "a two-view dataset needs exactly one view1_<name>.csv (the first view) and at "
            "least one view2_<name>.csv (the second view by each bag generator)."
        )
    return first, second


def _read_table(path: Path) -> pd.DataFrame:
    if not path.exists():
        raise DataFormatError(f"{path} is missing; see the two-view folder format "
                              "(milab_widgets.data.twoview_files).")
    try:
        table = pd.read_csv(path)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as error:
        raise DataFormatError(f"{path} is not a readable CSV ({error}).") from error
    if table.columns.empty or table.columns[0] != "bag_id":
        raise DataFormatError(f"{path}: the first column must be named 'bag_id' (header row).")
    if table.empty:
        raise DataFormatError(f"{path} has a header but no rows.")
    if path.name == LABELS_FILE and table["bag_id"].duplicated().any():
        duplicated = table.loc[table["bag_id"].duplicated(), "bag_id"].head(5).tolist()
        raise DataFormatError(f"{path} lists bag ids {duplicated} more than once; "
                              "one row per object.")
    return table


def _read_view(path: Path, bag_ids: np.ndarray, labels: np.ndarray) -> BagDataset:
    """Instances grouped by bag in the order of ``bag_ids`` (rows in file order)."""
    table = _read_table(path)
    features = table.iloc[:, 1:]
    if features.shape[1] == 0:
        raise DataFormatError(f"{path} has no feature columns after 'bag_id'.")
    values = features.apply(pd.to_numeric, errors="coerce").to_numpy(dtype=np.float64)
    if not np.isfinite(values).all():
        row = int(np.nonzero(~np.isfinite(values).all(axis=1))[0][0])
        raise DataFormatError(
            f"{path}: data row {row + 1} has a missing, non-numeric or infinite feature; "
            "every feature cell must be a finite number."
        )
    position = pd.Index(bag_ids).get_indexer(table["bag_id"])
    if (position < 0).any():
        unknown = table.loc[position < 0, "bag_id"].head(5).tolist()
        raise DataFormatError(f"{path}: bag ids {unknown} are not in {LABELS_FILE}.")
    sizes = np.bincount(position, minlength=len(bag_ids))
    if (sizes == 0).any():
        missing = bag_ids[sizes == 0][:5].tolist()
        raise DataFormatError(f"{path}: objects {missing} of {LABELS_FILE} have no instance; "
                              "every object needs at least one instance in every view.")
    order = np.argsort(position, kind="stable")
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    return BagDataset(values[order], offsets, labels, bag_ids, name=path.stem)


def _write_view(view: BagDataset, bag_ids: np.ndarray, path: Path) -> None:
    columns = {f"f{k + 1}": view.instances[:, k] for k in range(view.n_features)}
    pd.DataFrame({"bag_id": bag_ids[view.instance_bag_index], **columns}).to_csv(path, index=False)


def _relabelled(view: BagDataset, labels: np.ndarray) -> BagDataset:
    return BagDataset(view.instances, view.offsets, labels, view.bag_ids, view.name)
