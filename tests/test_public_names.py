"""Every public module of the package declares its public names (``__all__``), and each
declared name is there: a module whose name has no leading underscore is public."""

import importlib
import pkgutil

import pytest

import milab_widgets


def public_modules() -> list[str]:
    names = [info.name for info in pkgutil.walk_packages(milab_widgets.__path__,
                                                         prefix="milab_widgets.")]
    return sorted(name for name in names
                  if not any(part.startswith("_") for part in name.split(".")))


def test_the_walk_finds_the_modules_of_every_layer():
    modules = public_modules()
    for layer in ("core", "data", "mil", "multilabel", "oneclass", "evaluation", "claims",
                  "experiments", "charts", "widgets"):
        assert any(name.startswith(f"milab_widgets.{layer}.") for name in modules), layer


@pytest.mark.parametrize("name", public_modules())
def test_a_public_module_declares_names_that_exist(name):
    module = importlib.import_module(name)
    assert hasattr(module, "__all__"), f"{name} has no __all__"
    assert len(set(module.__all__)) == len(module.__all__), f"{name}: __all__ repeats a name"
    absent = [item for item in module.__all__ if not hasattr(module, item)]
    assert not absent, f"{name}.__all__ names what it does not hold: {absent}"
