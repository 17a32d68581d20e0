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
        _ = module.nope


def test_importing_the_packages_loads_no_panel_or_numba_code():
    code = ("import sys, milab_widgets.evaluation, milab_widgets.widgets; "
            "print(any(m in sys.modules for m in ('numba', 'milab_widgets.widgets.inth')))")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip() == "False"


@pytest.mark.parametrize("module, heavy", [
    ("milab_widgets", ("numba", "altair", "ipywidgets", "sklearn", "scipy", "pandas")),
    ("milab_widgets.data", ("numba", "altair", "sklearn", "scipy.io")),
    ("milab_widgets.mil", ("sklearn.mixture", "scipy.io", "altair")),
    ("milab_widgets.widgets.lab", ("numba", "altair", "sklearn")),
])
def test_importing_a_package_leaves_heavy_modules_until_they_are_used(module, heavy):
    """Heavy dependencies are imported where they are first needed (a .mat or ARFF read,
    a mixture kernel fitted, a panel built), keeping a new kernel's first use short."""
    code = f"import sys, {module}; print(sorted(m for m in {heavy!r} if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"
