"""The prebuilt JupyterLab front end that the wheel ships (milab_widgets/labextension) is
what its source (labextension/) builds: ``npm ci`` from the committed lock file, then
JupyterLab's builder, into a scratch folder, must give the committed files byte for byte
(the build is deterministic: content-hashed names, no timestamps), except for one number:
the module id of the federated container in ``remoteEntry.*.js`` (and so that file's hashed
name in package.json) follows the absolute folder the build ran in, which a clone cannot
share; that id is compared as a placeholder.

It needs node, npm and the npm registry, so it runs only with ``MILAB_BUILD_FRONTEND=1``
(which ``.ci/run`` sets); without it, it skips saying so. After changing labextension/src,
rebuild with ``cd labextension && npm ci && npm run build`` and commit both."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from milab_widgets.server.launch import LABEXTENSIONS

SOURCE = Path(__file__).resolve().parents[2] / "labextension"
BUILT = LABEXTENSIONS / "milab-widgets-jupyterlab"


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_committed_front_end_is_what_its_source_builds(tmp_path):
    if os.environ.get("MILAB_BUILD_FRONTEND") != "1":
        pytest.skip("set MILAB_BUILD_FRONTEND=1 to build the JupyterLab front end from source "
                    "(needs node 20, npm and the npm registry)")
    for tool in ("node", "npm"):
        assert shutil.which(tool), f"MILAB_BUILD_FRONTEND=1 but {tool} is not on the PATH"
    work = tmp_path / "labextension"
    shutil.copytree(SOURCE, work, ignore=shutil.ignore_patterns("node_modules"))
    subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=work, check=True,
                   capture_output=True, timeout=600)
    builder = Path(sys.executable).parent / "jupyter-builder"
    subprocess.run([builder, "build", "--development", "False", "."], cwd=work, check=True,
                   capture_output=True, timeout=600)
    rebuilt = tmp_path / "milab_widgets" / "labextension" / "milab-widgets-jupyterlab"
    assert files_of(rebuilt) == files_of(BUILT), "the committed build is not the source's"


def files_of(folder: Path) -> dict[str, str]:
    """Each built file's text by its path, the container's module id (and the remote
    entry's hashed name) replaced by placeholders."""
    files = {}
    for path in sorted(folder.rglob("*")):
        if not path.is_file():
            continue
        text = path.read_text()
        if path.name.startswith("remoteEntry."):
            name, text = "static/remoteEntry.js", container_id_free(text)
        elif path.name == "package.json":
            name, text = "package.json", re.sub(r"remoteEntry\.\w+\.js", "remoteEntry.js", text)
        else:
            name = path.relative_to(folder).as_posix()
        files[name] = text
    return files


def container_id_free(text: str) -> str:
    """``remoteEntry`` with the container module's numeric id as ``ID`` (``{ID(`` where it
    is defined, ``(ID)`` where it is required at the end)."""
    found = re.search(r"=\w+\((\d+)\);\(_JUPYTERLAB", text)
    assert found, "the remote entry no longer ends by requiring its container module"
    number = found.group(1)
    return text.replace(f"{{{number}(", "{ID(").replace(f"({number})", "(ID)")
