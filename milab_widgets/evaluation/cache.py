"""On-disk cache of result records, so an interrupted experiment resumes where it stopped.

A record is a small JSON-serialisable dict (one cross-validation fold's outcome, say),
stored under a key derived from everything that determines it. Writes are atomic (temporary
file + rename), so a run killed mid-write never leaves a half record behind. A record file
that is damaged anyway (truncated or edited by hand, copied from a full disk, another
record's parts) is never used: it is reported with a warning, deleted and recomputed.
"""

from __future__ import annotations

import hashlib
import json
import os
import warnings
from collections.abc import Callable
from pathlib import Path

from milab_widgets.atomic import write_text_atomically

__all__ = ["ResultCache"]

#: Bump when a change to the code makes cached records stale.
CACHE_VERSION = 2  # 2: SVDD radii include the solver accuracy (issue 20)


class ResultCache:
    """Records keyed by their defining parameters, one JSON file each, in ``folder``.

    ``folder=None`` disables caching (every record is computed).
    """

    def __init__(self, folder: str | os.PathLike | None):
        self.folder = None if folder is None else Path(folder)
        self.hits = 0
        self.misses = 0
        self.damaged = 0

    @staticmethod
    def key(parts: dict) -> str:
        text = json.dumps({"cache_version": CACHE_VERSION, **parts}, sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()[:24]

    def get(self, parts: dict) -> dict | None:
        """The cached record for ``parts``, or None when there is none."""
        path = self._path(parts)
        if path is None or not path.exists():
            return None
        record = _read_record(path, parts)
        if record is None:
            self.damaged += 1
            warnings.warn(f"damaged cache record {path} (truncated, not JSON, or not the "
                          "record of these parameters): deleted, recomputing it",
                          RuntimeWarning, stacklevel=2)
            path.unlink(missing_ok=True)
            return None
        self.hits += 1
        return record

    def put(self, parts: dict, record: dict) -> None:
        """Store ``record`` under ``parts`` (a no-op when caching is disabled)."""
        self.misses += 1
        path = self._path(parts)
        if path is not None:
            write_text_atomically(path, json.dumps({"parts": parts, "record": record},
                                                   default=str))

    def get_or_compute(self, parts: dict, compute: Callable[[], dict]) -> dict:
        """The cached record for ``parts``, or ``compute()`` stored and returned."""
        record = self.get(parts)
        if record is None:
            record = compute()
            self.put(parts, record)
        return record

    def _path(self, parts: dict) -> Path | None:
        return None if self.folder is None else self.folder / f"{self.key(parts)}.json"


def _read_record(path: Path, parts: dict) -> dict | None:
    """The record stored at ``path`` for ``parts``, or None when the file is damaged."""
    try:
        stored = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    expected = json.loads(json.dumps(parts, default=str))  # as it was stored
    if not isinstance(stored, dict) or stored.get("parts") != expected \
            or not isinstance(stored.get("record"), dict):
        return None
    return stored["record"]
