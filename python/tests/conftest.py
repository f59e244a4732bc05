import threading

import pytest


@pytest.fixture
def other_thread_ticks():
    """Runs a Python thread that counts while the test calls fn(); returns how many ticks
    it made during the call (0 when the call held the GIL throughout)."""

    def measure(fn):
        ticks = []
        stop = threading.Event()

        def tick():
            while not stop.is_set():
                ticks.append(1)

        t = threading.Thread(target=tick)
        t.start()
        try:
            before = len(ticks)
            result = fn()
            return result, len(ticks) - before
        finally:
            stop.set()
            t.join()

    return measure
