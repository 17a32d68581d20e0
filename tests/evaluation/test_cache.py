import json

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

    try:
        cache.get_or_compute({"fold": 3}, explode)
    except RuntimeError:
        pass
    assert list(tmp_path.iterdir()) == []
