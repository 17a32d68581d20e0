"""bench_threads' round order: what each timed run follows (calls are counted, not timed)."""

from __future__ import annotations

import contextlib
import importlib
from collections import Counter
from itertools import pairwise
from pathlib import Path

BENCHMARKS = Path(__file__).parents[2] / "benchmarks"


def test_each_setting_follows_the_peer_equally_often(monkeypatch):
    """A peer leaves its OpenMP threads spinning for a moment and the next run pays for it:
    the default and the one-thread setting must each come after it in half the rounds
    (rotating all three put the default there in two rounds of three)."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    bench_threads = importlib.import_module("bench_threads")
    runs = []

    def record(name):
        runs.append(name)
        return contextlib.nullcontext()

    def peer():
        runs[-1] = "peer"

    monkeypatch.setattr(bench_threads, "setting", record)
    bench_threads.time_settings(lambda: 0, rounds=6, extra={"peer": peer})
    after_peer = Counter(following for previous, following in pairwise(runs)
                         if previous == "peer")
    assert after_peer == {"default": 3, "one thread": 3}
    assert Counter(runs) == {"default": 7, "one thread": 7, "peer": 7}  # warm-up + 6
