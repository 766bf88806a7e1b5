"""How late the GUI thread runs a 10 ms timer: the event-loop latency the Training, playground
and Runs benches report (a module of theirs, not a bench: run_all.py skips names with `_`)."""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QTimer


class TimerLateness:
    """A precise timer whose every tick records how much later than asked it ran."""

    def __init__(self, tick_ms: int, on_tick: Callable[[], None] | None = None):
        self.tick_ms = tick_ms
        self.lateness: list[float] = []
        self._on_tick = on_tick
        self._last = time.perf_counter()
        self._timer = QTimer()
        self._timer.setTimerType(self._timer.timerType().PreciseTimer)
        self._timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now = time.perf_counter()
        self.lateness.append(max(0.0, now - self._last - self.tick_ms / 1000))
        self._last = now
        if self._on_tick is not None:
            self._on_tick()

    def start(self) -> None:
        self._last = time.perf_counter()
        self._timer.start(self.tick_ms)

    def stop(self) -> None:
        self._timer.stop()


def p95(lateness: list[float]) -> float:
    ordered = sorted(lateness)
    return ordered[int(0.95 * (len(ordered) - 1))]
