"""Lazy package exports: every public name resolves, unknown names fail clearly."""

import importlib
import subprocess
import sys

import pytest


@pytest.mark.parametrize("package", ["milab_widgets.evaluation", "milab_widgets.widgets"])
def test_every_lazy_export_resolves_and_is_listed(package):
    module = importlib.import_module(package)
    for name in module.__all__:
        assert getattr(module, name).__name__ == name
    assert set(module.__all__) <= set(dir(module))
    with pytest.raises(AttributeError, match="has no attribute 'nope'"):
        module.nope


def test_importing_the_packages_loads_no_panel_or_numba_code():
    code = ("import sys, milab_widgets.evaluation, milab_widgets.widgets; "
            "print(any(m in sys.modules for m in ('numba', 'milab_widgets.widgets.inth')))")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip() == "False"
