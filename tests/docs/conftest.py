"""The documentation build shared by the tests of tests/docs.

``built_docs`` runs the one command of docs/conf.py, ``python -m sphinx -W -b html docs
<out>``, once per test session into a temporary folder, and hands every test that asks for
it the finished process and the output folder (a build takes minutes on a loaded machine).
It needs the ``docs`` extra (``pip install -e '.[docs]'``) and is skipped, with that reason,
where the extra is not installed (failed instead under ``MILAB_REQUIRE_EXTRAS=docs``, as CI
sets: tests/extras.py).

``docs_site`` is the output folder of that build once it succeeded -- or, with
``MILAB_DOCS_BUILT=<folder>``, a site already built there (to rerun the checks of the built
pages without waiting for another build; the -W build test itself always builds).
"""

import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.extras import require_extra

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


@pytest.fixture(scope="session")
def built_docs(tmp_path_factory):
    """``.process`` (the finished sphinx run, ``-W``) and ``.out`` (its HTML folder)."""
    require_extra("docs")
    out = tmp_path_factory.mktemp("docs") / "html"
    process = subprocess.run([sys.executable, "-m", "sphinx", "-W", "-b", "html", str(DOCS),
                              str(out)], cwd=ROOT, capture_output=True, text=True, timeout=900)
    return SimpleNamespace(process=process, out=out)


@pytest.fixture
def docs_site(request):
    """The output folder of a build that succeeded (fails the test otherwise), or the folder
    named by MILAB_DOCS_BUILT."""
    reused = os.environ.get("MILAB_DOCS_BUILT")
    if reused:
        assert (Path(reused) / "index.html").is_file(), f"MILAB_DOCS_BUILT={reused}: no index.html"
        return Path(reused)
    built_docs = request.getfixturevalue("built_docs")
    build = built_docs.process
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-6000:]
    return built_docs.out
