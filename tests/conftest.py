"""Shared test helpers.

* ``require_dataset(name)`` loads a registered dataset for tests that need real data. When
  it is unavailable the test is skipped with the library's own explanation (how to fetch
  it) -- unless ``MILAB_REQUIRE_DATA=1`` (set in CI), where it fails instead, so real-data
  tests are never skipped silently there.
* ``require_files(*names)`` does the same without loading: it only checks that the
  datasets' files are present (for tests that hand the data to a subprocess, a notebook).
* ``require_browser`` skips a test when chromium or playwright is missing (fails instead
  under ``MILAB_REQUIRE_BROWSER=1``, as CI sets when chromium is present).
* ``empty_data_home`` points ``MILAB_DATA_HOME`` at an empty folder (a fresh install).
* ``repo_copy`` and ``fresh_venvs`` (session-wide): the working tree copied as a fresh
  clone has it, and one fresh virtual environment per interpreter, shared by the tests that
  install the project as a user would (tests/packaging/fresh_env.py).
* ``http_server`` serves a temporary folder on 127.0.0.1 (never the internet), and
  ``register_tiny_dataset`` registers a 2-bag CSV dataset served there.
"""

import hashlib
import importlib.util
import os
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import SimpleNamespace

import pytest

from milab_widgets.data import load_dataset
from milab_widgets.data.home import locate
from milab_widgets.data.loaders import load_mil_csv
from milab_widgets.data.registry import REGISTRY, DataFile, DatasetSpec, get_spec
from milab_widgets.exceptions import DatasetUnavailableError
from tests.packaging.fresh_env import copy_repository, make_venv

#: Debian's chromium, driven by playwright in the browser tests (never downloaded).
CHROMIUM = Path("/usr/bin/chromium")

TINY_CSV = b"1,1,0.5,1.5\n1,1,2.5,3.5\n0,2,4.5,5.5\n"


@pytest.fixture
def require_browser():
    """Skip when chromium or playwright is missing (fail under MILAB_REQUIRE_BROWSER=1)."""
    missing = [why for absent, why in (
        (not CHROMIUM.exists(), f"{CHROMIUM} missing: apt-get install chromium"),
        (importlib.util.find_spec("playwright") is None,
         "playwright missing: pip install playwright"),
    ) if absent]
    if missing and os.environ.get("MILAB_REQUIRE_BROWSER") == "1":
        pytest.fail(f"MILAB_REQUIRE_BROWSER=1 but {'; '.join(missing)}", pytrace=False)
    if missing:
        pytest.skip("; ".join(missing))


def skip_unless_required(missing: DatasetUnavailableError):
    """Skip the test for a missing dataset, or fail it under MILAB_REQUIRE_DATA=1."""
    if os.environ.get("MILAB_REQUIRE_DATA") == "1":
        pytest.fail(f"MILAB_REQUIRE_DATA=1 but {missing}", pytrace=False)
    pytest.skip(str(missing))


@pytest.fixture
def require_dataset():
    """``require(name) -> dataset``; skips (fails under MILAB_REQUIRE_DATA=1) if missing."""

    def require(name):
        try:
            return load_dataset(name)
        except DatasetUnavailableError as missing:
            skip_unless_required(missing)

    return require


@pytest.fixture
def require_files():
    """``require(*names)``: skips (fails under MILAB_REQUIRE_DATA=1) unless every named
    dataset's files are present and intact; nothing is loaded."""

    def require(*names):
        for name in names:
            try:
                locate(get_spec(name))
            except DatasetUnavailableError as missing:
                skip_unless_required(missing)

    return require


@pytest.fixture
def empty_data_home(tmp_path, monkeypatch):
    home = tmp_path / "data_home"
    monkeypatch.setenv("MILAB_DATA_HOME", str(home))
    monkeypatch.delenv("MILAB_DATA_URL", raising=False)
    return home


@pytest.fixture(scope="session")
def repo_copy(tmp_path_factory):
    return copy_repository(tmp_path_factory.mktemp("clone") / "repo")


@pytest.fixture(scope="session")
def fresh_venvs(tmp_path_factory):
    """``venv_for(python) -> FreshVenv``, made on first use for each interpreter."""
    made = {}

    def venv_for(python):
        if python not in made:
            made[python] = make_venv(python, tmp_path_factory.mktemp("venv") / "venv")
        return made[python]

    return venv_for


class _RecordingHandler(SimpleHTTPRequestHandler):
    """Serves files, records each requested path on the server, logs nothing."""

    def do_GET(self):
        self.server.requests.append(self.path)
        super().do_GET()

    def log_message(self, *args):
        pass


@pytest.fixture
def http_server(tmp_path, monkeypatch):
    """Serves ``.root`` at ``.url``; ``.requests`` lists the paths asked for."""
    root = tmp_path / "served"
    root.mkdir()
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_RecordingHandler, directory=root))
    server.requests = []
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    monkeypatch.setenv("no_proxy", "127.0.0.1")
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    yield SimpleNamespace(root=root, url=f"http://127.0.0.1:{server.server_port}",
                          requests=server.requests)
    server.shutdown()
    server.server_close()


@pytest.fixture
def register_tiny_dataset(http_server, monkeypatch):
    """``register(name, served=TINY_CSV, url=None) -> spec``: a dataset whose registered
    sha256 is TINY_CSV's; ``served`` (None: nothing) is what the server holds."""

    def register(name, served=TINY_CSV, url=None):
        relpath = f"mil/{name}.csv"
        if served is not None:
            (http_server.root / "mil").mkdir(exist_ok=True)
            (http_server.root / relpath).write_bytes(served)
        data_file = DataFile(relpath, hashlib.sha256(TINY_CSV).hexdigest(), url)
        spec = DatasetSpec(name, "mil", (data_file,), http_server.url, "", "", load_mil_csv)
        monkeypatch.setitem(REGISTRY, name, spec)
        return spec

    return register
