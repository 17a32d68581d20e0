"""Atomic file writes: a result file is either complete or absent, never half written.

Everything a run presents as a result (tables, settings, charts, cache records, the run
record, the report) is written to a temporary file in the target's own folder and renamed
over the target only once the write has succeeded (``os.replace`` is atomic on one
filesystem). A full disk, a file-size limit or a kill mid-write leaves the previous file (or
none) and no temporary behind; the error reaches the caller.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["atomic_path", "write_text_atomically"]


@contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """A temporary path beside ``path`` to write to; renamed to ``path`` when the block ends
    without an error, deleted when it raises. Keeps ``path``'s suffix, so writers that pick
    the format from the name (pandas, Altair) still do."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.",
                                         suffix=f".partial{target.suffix}")
    os.close(handle)
    try:
        yield Path(temporary)
        os.chmod(temporary, 0o644)  # mkstemp makes it owner-only
        os.replace(temporary, target)
    finally:
        Path(temporary).unlink(missing_ok=True)


def write_text_atomically(path: str | os.PathLike, text: str) -> Path:
    """Write ``text`` to ``path`` atomically; returns the path."""
    with atomic_path(path) as temporary:
        temporary.write_text(text)
    return Path(path)
