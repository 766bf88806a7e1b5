"""The training playground at full speed with its live pictures, against the same loop headless,
in one run.

A 2-8-8-1 tanh network on 500 points of the circles task (350 training samples in mini-batches
of 32, Adam), played at full speed in the PlaygroundPanel (offscreen, every picture on: the
decision boundary on a 100 × 100 grid and the 16 hidden neurons' tiles, redrawn from the
worker's frames), from Play until the panel says finished, against `PlaygroundTrainer(config)
.run()` with no GUI. Interleaved runs, medians. Goals:

  playground_gui_full_speed      GUI time / headless time          <= 1.5
  playground_picture_interval    mean seconds between drawn frames <= 0.1 (at least 10 Hz)
  playground_event_loop_p95      p95 lateness of a 10 ms timer     <= 0.050 s, meanwhile

The lateness is real event latency: how much later than asked the GUI thread ran a timer's
event while the worker trained and the pictures were drawn.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from _timer_lateness import TimerLateness  # noqa: E402
from PySide6.QtCore import QEventLoop, QTimer, qInstallMessageHandler  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402
from startup import bench_line  # noqa: E402

from tensorviz.core.training.data import TrainingConfig  # noqa: E402
from tensorviz.core.training.network_choices import task_defaults  # noqa: E402
from tensorviz.core.training.playground_trainer import PlaygroundTrainer  # noqa: E402
from tensorviz.ui.training.playground_panel import PlaygroundPanel  # noqa: E402
from tensorviz.ui.widgets.theme import LIGHT, stylesheet  # noqa: E402

RUNS = 5
EPOCHS = 300
GOAL_RATIO = 1.5
FRAME_BUDGET_S = 0.1  # at least 10 pictures a second
LATENCY_BUDGET_S = 0.050
TICK_MS = 10
CONFIG = TrainingConfig(**task_defaults("circles")).with_changes(
    n=500, hidden_layers=(8, 8), activations=("tanh", "tanh"), epochs=EPOCHS
)


def quiet_offscreen_notes(_mode, _context, message: str) -> None:
    if "This plugin does not support" not in message:
        print(message, file=sys.stderr)


def wait_for(panel: PlaygroundPanel, condition, timeout_s: float = 600) -> None:
    """Run the event loop until `condition()` holds, checked when the panel's state changes
    or a frame is drawn (no polling timer competing with the training thread)."""
    if condition():
        return
    loop = QEventLoop()

    def check(*_args) -> None:
        if condition():
            loop.quit()

    panel.state_changed.connect(check)
    panel.frame_drawn.connect(check)
    QTimer.singleShot(int(timeout_s * 1000), loop.quit)
    loop.exec()
    panel.state_changed.disconnect(check)
    panel.frame_drawn.disconnect(check)


def settle(seconds: float) -> None:
    loop = QEventLoop()
    QTimer.singleShot(int(seconds * 1000), loop.quit)
    loop.exec()


def time_gui(panel: PlaygroundPanel) -> tuple[float, float, list[float]]:
    """(seconds from Play to finished, mean seconds between drawn frames, timer lateness)."""
    panel.reset()
    wait_for(panel, lambda: panel.state == "ready" and panel.frame is not None)
    settle(0.1)  # let the fresh experiment paint before the clock starts
    drawn: list[float] = []
    show = panel.boundary.show_frame

    def timed_show(frame) -> None:
        show(frame)
        drawn.append(time.perf_counter())

    panel.boundary.show_frame = timed_show
    ticker = TimerLateness(TICK_MS)
    start = time.perf_counter()
    ticker.start()
    panel.play()
    wait_for(panel, lambda: panel.state == "finished")
    elapsed = time.perf_counter() - start
    ticker.stop()
    panel.boundary.show_frame = show
    if len(panel.history) != EPOCHS:
        raise SystemExit(f"the GUI run did not finish {EPOCHS} epochs")
    during = [t for t in drawn if t <= start + elapsed]
    interval = elapsed / max(1, len(during))
    return elapsed, interval, ticker.lateness


def time_headless() -> float:
    trainer = PlaygroundTrainer(CONFIG)
    start = time.perf_counter()
    trainer.run()
    return time.perf_counter() - start


def main() -> int:
    qInstallMessageHandler(quiet_offscreen_notes)
    app = QApplication([])
    app.setStyleSheet(stylesheet(LIGHT))  # the app's own light theme, as the window applies it
    panel = PlaygroundPanel(["cpu"], initial=CONFIG)
    panel.resize(1104, 760)
    panel.show()
    wait_for(panel, lambda: panel.state == "ready" and panel.frame is not None)
    layout = panel.info.layout
    if layout.columns != (2, 8, 8, 1) or panel.frame.boundary.shape[:2] != (100, 100):
        raise SystemExit("the bench must draw a 100 × 100 boundary and 16 neuron tiles")
    try:
        time_gui(panel)  # warm caches and lazy imports on both sides once
        time_headless()
        ours, anchors, intervals, lateness = [], [], [], []
        for _ in range(RUNS):
            elapsed, interval, late = time_gui(panel)
            ours.append(elapsed)
            intervals.append(interval)
            lateness += late
            anchors.append(time_headless())
    finally:
        panel.shutdown()
    lateness.sort()
    p95 = lateness[int(0.95 * (len(lateness) - 1))]
    interval = statistics.median(intervals)
    print(
        f"# {EPOCHS} epochs of a 2-8-8-1 network on 500 points: GUI {statistics.median(ours):.2f} s"
        f" with {1 / interval:.1f} pictures/s, headless {statistics.median(anchors):.2f} s; "
        f"{len(lateness)} timer events, worst lateness {lateness[-1] * 1000:.0f} ms"
    )
    print(
        bench_line(
            "playground_gui_full_speed",
            statistics.median(ours),
            statistics.median(anchors),
            GOAL_RATIO,
        )
    )
    print(bench_line("playground_picture_interval", interval, FRAME_BUDGET_S, 1))
    print(bench_line("playground_event_loop_p95_latency", p95, LATENCY_BUDGET_S, 1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
