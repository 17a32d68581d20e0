"""alternating_cpu_seconds: the order of the rounds, the clock (the calling thread's CPU
time only), BLAS held to one thread, bad input."""

import threading
import time

import pytest
from threadpoolctl import threadpool_info

from milab_widgets.evaluation.timing import alternating_cpu_seconds
from milab_widgets.exceptions import InputError


def test_rounds_alternate_forward_and_backward():
    calls = []
    functions = {name: (lambda name=name: calls.append(name)) for name in "ABC"}
    seconds = alternating_cpu_seconds(functions, rounds=3)
    assert calls == list("ABC" "CBA" "ABC")
    assert {name: len(values) for name, values in seconds.items()} == dict.fromkeys("ABC", 3)
    calls.clear()
    alternating_cpu_seconds(functions, rounds=1, first_round=7)  # an odd record: backward
    assert calls == list("CBA")


def test_the_clock_counts_the_threads_own_work_only():
    stop = threading.Event()
    spins = []

    def spin():  # another thread of the process, busy while the timed function sleeps
        count = 0
        while not stop.is_set():
            count += 1
        spins.append(count)

    spinner = threading.Thread(target=spin)
    spinner.start()
    try:
        seconds = alternating_cpu_seconds({"sleep": lambda: time.sleep(0.2),
                                           "work": lambda: sum(range(2_000_000))}, rounds=1)
    finally:
        stop.set()
        spinner.join()
    assert spins[0] > 0
    assert seconds["sleep"][0] < 0.05  # neither the sleep nor the spinning thread counts
    assert seconds["work"][0] > 0


def test_blas_runs_on_one_thread_while_timed():
    seen = []
    alternating_cpu_seconds({"look": lambda: seen.extend(
        info["num_threads"] for info in threadpool_info() if info["user_api"] == "blas")},
        rounds=1)
    assert seen and set(seen) == {1}


@pytest.mark.parametrize("functions,rounds", [({}, 1), ({"A": lambda: None}, 0)])
def test_bad_input_is_refused(functions, rounds):
    with pytest.raises(InputError, match="rounds >= 1"):
        alternating_cpu_seconds(functions, rounds)
