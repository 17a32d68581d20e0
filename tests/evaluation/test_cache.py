import contextlib
import json

import pytest

from milab_widgets.evaluation.cache import ResultCache


def test_records_are_computed_once_and_reloaded(tmp_path):
    calls = []
    cache = ResultCache(tmp_path)
    first = cache.get_or_compute({"fold": 1}, lambda: calls.append(1) or {"accuracy": 0.5})
    again = ResultCache(tmp_path).get_or_compute({"fold": 1}, lambda: calls.append(1) or {})
    assert first == again == {"accuracy": 0.5}
    assert len(calls) == 1
    stored = json.loads(next(tmp_path.glob("*.json")).read_text())
    assert stored["parts"] == {"fold": 1}


def test_different_parts_are_different_records(tmp_path):
    cache = ResultCache(tmp_path)
    cache.get_or_compute({"fold": 1}, lambda: {"v": 1})
    assert cache.get_or_compute({"fold": 2}, lambda: {"v": 2}) == {"v": 2}
    assert (cache.hits, cache.misses) == (0, 2)


def test_disabled_cache_always_computes():
    cache = ResultCache(None)
    assert cache.get_or_compute({"a": 1}, lambda: {"v": 1}) == {"v": 1}
    assert cache.get_or_compute({"a": 1}, lambda: {"v": 2}) == {"v": 2}


def test_a_failed_computation_leaves_no_record(tmp_path):
    cache = ResultCache(tmp_path)

    def explode():
        raise RuntimeError("killed")

    with contextlib.suppress(RuntimeError):
        cache.get_or_compute({"fold": 3}, explode)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("damage", [
    lambda text: text[: len(text) // 2],                       # truncated mid-write
    lambda text: "",                                            # empty file
    lambda text: "{not json",                                   # not JSON
    lambda text: text.replace('"fold": 1', '"fold": 2'),        # another record's parts
    lambda text: text.replace('"record"', '"recrod"'),          # no record
])
def test_a_damaged_record_is_detected_deleted_and_recomputed_never_used(tmp_path, damage):
    cache = ResultCache(tmp_path)
    cache.put({"fold": 1}, {"accuracy": 0.9})
    path = next(tmp_path.glob("*.json"))
    path.write_text(damage(path.read_text()))
    with pytest.warns(RuntimeWarning, match="damaged cache record .*recomputing"):
        record = cache.get_or_compute({"fold": 1}, lambda: {"accuracy": 0.5})
    assert record == {"accuracy": 0.5} and cache.damaged == 1
    assert ResultCache(tmp_path).get({"fold": 1}) == {"accuracy": 0.5}  # replaced, intact


def test_records_are_written_atomically_no_temporary_is_left(tmp_path):
    cache = ResultCache(tmp_path)
    for fold in range(5):
        cache.put({"fold": fold}, {"accuracy": fold / 10})
    assert sorted(p.suffix for p in tmp_path.iterdir()) == [".json"] * 5
