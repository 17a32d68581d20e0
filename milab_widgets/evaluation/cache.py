"""On-disk cache of result records, so an interrupted experiment resumes where it stopped.

A record is a small JSON-serialisable dict (one cross-validation fold's outcome, say),
stored under a key derived from everything that determines it. Writes are atomic (temporary
file + rename), so a run killed mid-write never leaves a half record behind.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

#: Bump when a change to the code makes cached records stale.
CACHE_VERSION = 1


class ResultCache:
    """Records keyed by their defining parameters, one JSON file each, in ``folder``.

    ``folder=None`` disables caching (every record is computed).
    """

    def __init__(self, folder: str | os.PathLike | None):
        self.folder = None if folder is None else Path(folder)
        self.hits = 0
        self.misses = 0

    @staticmethod
    def key(parts: dict) -> str:
        text = json.dumps({"cache_version": CACHE_VERSION, **parts}, sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()[:24]

    def get(self, parts: dict) -> dict | None:
        """The cached record for ``parts``, or None when there is none."""
        path = self._path(parts)
        if path is None or not path.exists():
            return None
        self.hits += 1
        return json.loads(path.read_text())["record"]

    def put(self, parts: dict, record: dict) -> None:
        """Store ``record`` under ``parts`` (a no-op when caching is disabled)."""
        self.misses += 1
        path = self._path(parts)
        if path is not None:
            _write_atomically(path, {"parts": parts, "record": record})

    def get_or_compute(self, parts: dict, compute: Callable[[], dict]) -> dict:
        """The cached record for ``parts``, or ``compute()`` stored and returned."""
        record = self.get(parts)
        if record is None:
            record = compute()
            self.put(parts, record)
        return record

    def _path(self, parts: dict) -> Path | None:
        return None if self.folder is None else self.folder / f"{self.key(parts)}.json"


def _write_atomically(path: Path, content: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(handle, "w") as stream:
        json.dump(content, stream, default=str)
    os.replace(temporary, path)
