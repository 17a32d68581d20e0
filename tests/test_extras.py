"""tests/extras.py: a test that needs an optional extra skips, naming the extra and its
install command, unless MILAB_REQUIRE_EXTRAS names the extra, where it fails."""

import pytest

from tests import extras


@pytest.fixture
def absent_extra(monkeypatch):
    monkeypatch.setitem(extras.EXTRA_MODULES, "absent", ("no_such_module_of_milab",))
    return "absent"


def test_a_missing_extra_skips_with_its_install_command(absent_extra, monkeypatch):
    monkeypatch.delenv("MILAB_REQUIRE_EXTRAS", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"pip install -e '\.\[absent\]'"):
        extras.require_extra(absent_extra)


def test_a_required_extra_that_is_missing_fails(absent_extra, monkeypatch):
    monkeypatch.setenv("MILAB_REQUIRE_EXTRAS", "docs, absent")
    with pytest.raises(pytest.fail.Exception, match="no_such_module_of_milab"):
        extras.require_extra(absent_extra)


def test_an_installed_extra_neither_skips_nor_fails(monkeypatch):
    monkeypatch.setitem(extras.EXTRA_MODULES, "present", ("json",))
    monkeypatch.setenv("MILAB_REQUIRE_EXTRAS", "present")
    assert extras.require_extra("present") is None
