"""The API reference lists every public estimator and function.

Each public subpackage declares its public names in ``__all__``; docs/api/index.md must list
every one of them in an autosummary, so a new export cannot be left out of the reference.
"""

import importlib
import re
from pathlib import Path

import pytest

API_PAGE = Path(__file__).resolve().parents[2] / "docs" / "api" / "index.md"
PUBLIC_PACKAGES = [
    "milab_widgets",
    "milab_widgets.data",
    "milab_widgets.mil",
    "milab_widgets.oneclass",
    "milab_widgets.multilabel",
    "milab_widgets.multilabel.metrics",
    "milab_widgets.evaluation",
    "milab_widgets.charts",
    "milab_widgets.widgets",
]
EXPERIMENTS = ["inth", "cdvse", "mfsef", "twoview", "lskmddm"]


def listed_names() -> set[str]:
    """The fully qualified names the API page's autosummaries list."""
    names, module = set(), None
    for line in API_PAGE.read_text(encoding="utf-8").splitlines():
        current = re.match(r"\.\. currentmodule:: (\S+)", line)
        if current:
            module = current[1]
        entry = re.match(r" {3}([A-Za-z_][\w.]*)$", line)
        if entry and module:
            names.add(f"{module}.{entry[1]}")
    return names


@pytest.mark.parametrize("package", PUBLIC_PACKAGES)
def test_every_public_name_is_in_the_api_reference(package):
    exported = importlib.import_module(package).__all__
    # The metrics module is a namespace of functions, documented on its own.
    expected = {f"{package}.{name}" for name in exported
                if not (package == "milab_widgets.multilabel" and name == "metrics")}
    missing = sorted(expected - listed_names())
    assert not missing, f"add to docs/api/index.md: {missing}"


def test_every_experiment_entry_point_is_in_the_api_reference():
    listed = listed_names()
    for paper in EXPERIMENTS:
        assert f"milab_widgets.experiments.{paper}.run" in listed


def test_every_listed_name_exists():
    for qualified in sorted(listed_names()):
        module, _, name = qualified.rpartition(".")
        while module:
            try:
                owner = importlib.import_module(module)
                break
            except ModuleNotFoundError:
                module, _, parent = module.rpartition(".")
                name = f"{parent}.{name}"
        target = owner
        for part in name.split("."):
            target = getattr(target, part)
        assert target is not None, qualified
