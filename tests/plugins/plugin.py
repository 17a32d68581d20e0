"""Running Python as if the fixture plugin paper (tests/plugin_paper) were installed: its
folder holds the package and its dist-info, so on ``PYTHONPATH`` it is registered."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

PLUGIN_SITE = Path(__file__).resolve().parents[1] / "plugin_paper"


def plugin_env(site: Path = PLUGIN_SITE) -> dict:
    """The environment with ``site`` first on ``PYTHONPATH`` (absolute: kernels start in
    their output folder)."""
    paths = [str(site), *filter(None, [os.environ.get("PYTHONPATH")])]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}


def run_with_plugin(script: str, site: Path = PLUGIN_SITE, timeout: int = 300
                    ) -> subprocess.CompletedProcess:
    """``script`` run by this interpreter in a fresh process with the plugin installed."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(script)], env=plugin_env(site),
                          capture_output=True, text=True, timeout=timeout, check=False)
