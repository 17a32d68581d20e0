"""What every paper's experiment does alike: load the datasets that are available (reporting
the others), assemble tables that may be empty, and write them out.

A run on a fresh install lacks most benchmarks; the experiments then still finish, with
empty tables that keep their columns and a ``skipped`` mapping (name -> why, and how to get
the data) that the notebooks print.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from milab_widgets.atomic import atomic_path, write_text_atomically
from milab_widgets.data import load_dataset
from milab_widgets.exceptions import DatasetUnavailableError

__all__ = ["load_available", "concat_or_empty", "write_tables", "write_skipped"]


def load_available(names: Iterable[str], unavailable: Mapping[str, str] | None = None
                   ) -> tuple[dict[str, Any], dict[str, str]]:
    """Load every dataset of ``names`` that is available.

    Returns (datasets: name -> dataset, in the order given; skipped: name -> the reason and
    how to get it). ``unavailable`` lists datasets known to be unobtainable (name -> why),
    which are skipped without being looked for.
    """
    unavailable = unavailable or {}
    datasets, skipped = {}, {}
    for name in names:
        if name in unavailable:
            skipped[name] = unavailable[name]
            continue
        try:
            datasets[name] = load_dataset(name)
        except DatasetUnavailableError as error:
            skipped[name] = str(error)
    return datasets, skipped


def concat_or_empty(tables: Sequence[pd.DataFrame], columns: Sequence[str] = ()) -> pd.DataFrame:
    """The tables stacked, or an empty table with ``columns`` when there is none."""
    return pd.concat(tables, ignore_index=True) if tables else pd.DataFrame(columns=list(columns))


def write_tables(folder, tables: Mapping[str, pd.DataFrame], settings: Mapping[str, Any],
                 skipped: Mapping[str, str]) -> list[Path]:
    """Write each table as ``<name>.csv``, the settings (with ``skipped``) as
    ``settings.json`` and the skipped datasets as ``skipped.txt`` into ``folder`` (created
    if needed); returns the paths written."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, table in tables.items():
        path = folder / f"{name}.csv"
        with atomic_path(path) as temporary:
            table.to_csv(temporary, index=False)
        written.append(path)
    settings_path = write_text_atomically(
        folder / "settings.json", pd.Series({**settings, "skipped": dict(skipped)}).to_json(indent=2))
    return [*written, settings_path, write_skipped(folder, skipped)]


def write_skipped(folder, skipped: Mapping[str, str]) -> Path:
    """Write ``skipped.txt`` into ``folder``: one line "skipped NAME: reason" per skipped
    dataset (an empty file when none was); returns its path."""
    return write_text_atomically(
        Path(folder) / "skipped.txt",
        "".join(f"skipped {name}: {reason}\n" for name, reason in skipped.items()))
