"""A full disk (issue 20): writes fail with a clear error and leave no half-written file that
could be taken for a result. The disk is filled for real with RLIMIT_FSIZE (a file may not
grow past the limit; Python ignores SIGXFSZ, so the write raises OSError EFBIG)."""

from __future__ import annotations

import json
import resource
import subprocess
import sys

import pytest

from milab_widgets.papers import RUN_RECORD
from tests.runner.notebooks import write_notebooks

LIMIT_BYTES = 256 * 1024

WRITE_BIG_TABLE = """
import pandas as pd
from milab_widgets.experiments.tables import write_tables
write_tables(".", {"big": pd.DataFrame({"x": range(200_000)})}, {"quick": True}, {})
"""


def limit_file_size():
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT_BYTES, LIMIT_BYTES))


def run_limited(arguments, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *arguments], preexec_fn=limit_file_size,
                          capture_output=True, text=True, timeout=300, **kwargs)


def test_writers_raise_and_keep_the_previous_file_with_no_temporary_left(tmp_path):
    (tmp_path / "big.csv").write_text("x\n1\n")  # the previous result
    finished = run_limited(["-c", WRITE_BIG_TABLE], cwd=tmp_path)
    assert finished.returncode == 1
    assert "OSError: [Errno 27] File too large" in finished.stderr
    assert (tmp_path / "big.csv").read_text() == "x\n1\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["big.csv"]


@pytest.mark.slow
def test_milab_reproduce_on_a_full_disk_fails_the_paper_clearly_and_presents_no_half_file(
        tmp_path, monkeypatch):
    notebooks = write_notebooks(tmp_path / "notebooks", {"intH": [WRITE_BIG_TABLE]})
    monkeypatch.setenv("MILAB_NOTEBOOKS", str(notebooks))
    output = tmp_path / "out"
    finished = run_limited(["-m", "milab_widgets.cli", "reproduce", "intH", "--output",
                            str(output)])
    assert finished.returncode == 1, finished.stderr
    assert "intH: FAILED" in finished.stderr and "File too large" in finished.stderr
    assert not (output / "intH" / "big.csv").exists()
    assert not list((output / "intH").glob("*.partial*"))
    record = json.loads((output / "intH" / RUN_RECORD).read_text())
    assert record["status"] == "failed" and "File too large" in record["error"]
    assert "| [intH](#intH) | failed |" in (output / "REPORT.md").read_text()
