"""The Training area at full speed, against the same trainer headless, in one run.

1. The default experiment (500 epochs) played at full speed in the TrainingPanel (offscreen, live
   plots on), from Play until the panel says finished, against `Trainer(config).run()` with no GUI.
   Interleaved runs, medians. Goal: ratio <= 1.5.
2. A 100,000-epoch run at full speed while a 10 ms QTimer measures how late the event loop wakes
   (goal: 95th percentile under 50 ms), and RSS sampled at 10 % and at the end of the run (every
   record is kept: plot history is bounded by downsampling, not by dropping data); goal <= 1.2.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from _timer_lateness import TimerLateness, p95  # noqa: E402
from PySide6.QtCore import QEventLoop, QTimer, qInstallMessageHandler  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402
from startup import bench_line  # noqa: E402

from tensorviz.core.training.data import TrainingConfig  # noqa: E402
from tensorviz.core.training.trainer import Trainer  # noqa: E402
from tensorviz.ui.training.training_panel import TrainingPanel  # noqa: E402
from tensorviz.ui.window.appearance import Appearance  # noqa: E402

RUNS = 5
GOAL_RATIO = 1.5
LONG_EPOCHS = 100_000
LATENCY_BUDGET_S = 0.050
RSS_GOAL = 1.2
TICK_MS = 10
LONG_RUN_CAP_S = 150  # keep `make bench` bounded on a slow machine


def quiet_offscreen_notes(_mode, _context, message: str) -> None:
    if "This plugin does not support" not in message:
        print(message, file=sys.stderr)


def rss_mb() -> float:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def wait_for(panel: TrainingPanel, condition, timeout_s: float = 600) -> None:
    """Run the event loop until `condition()` holds, checked whenever the panel's state changes
    (no polling: a polling timer would compete with the training thread for the GIL)."""
    if condition():
        return
    loop = QEventLoop()

    def check(_state: str) -> None:
        if condition():
            loop.quit()

    panel.state_changed.connect(check)
    QTimer.singleShot(int(timeout_s * 1000), loop.quit)
    loop.exec()
    panel.state_changed.disconnect(check)


def settle(seconds: float) -> None:
    loop = QEventLoop()
    QTimer.singleShot(int(seconds * 1000), loop.quit)
    loop.exec()


def prepare(panel: TrainingPanel, epochs: int) -> None:
    if panel.form.epochs.value() != epochs:
        panel.form.epochs.setValue(epochs)  # resets the experiment
    else:
        panel.reset()
    wait_for(panel, lambda: panel.state == "ready")
    settle(0.1)  # let the fresh experiment paint before the clock starts


def time_gui(panel: TrainingPanel) -> float:
    prepare(panel, 500)
    start = time.perf_counter()
    panel.play()
    wait_for(panel, lambda: panel.state == "finished")
    elapsed = time.perf_counter() - start
    if len(panel.history) != 500:
        raise SystemExit("the GUI run did not finish 500 epochs")
    return elapsed


def time_headless() -> float:
    trainer = Trainer(TrainingConfig())
    start = time.perf_counter()
    trainer.run()
    return time.perf_counter() - start


def long_run(panel: TrainingPanel) -> tuple[float, float, float, int]:
    prepare(panel, LONG_EPOCHS)
    samples: dict[str, float] = {}

    def on_tick() -> None:
        if (
            "early" not in samples
            and panel.history
            and panel.history[-1].epoch >= LONG_EPOCHS // 10
        ):
            samples["early"] = rss_mb()

    ticker = TimerLateness(TICK_MS, on_tick)
    ticker.start()
    start = time.perf_counter()
    panel.play()
    wait_for(panel, lambda: panel.state == "finished", LONG_RUN_CAP_S)
    panel.pause()
    ticker.stop()
    elapsed = time.perf_counter() - start
    end = rss_mb()
    epochs = int(panel.history[-1].epoch)
    return p95(ticker.lateness), samples.get("early", end), end, epochs, elapsed


def main() -> int:
    qInstallMessageHandler(quiet_offscreen_notes)
    app = QApplication([])  # noqa: F841 (kept alive for the whole run)
    Appearance.shared().apply("light", 1.0)  # the app's own look, as in the window
    panel = TrainingPanel(["cpu"])
    panel.resize(1104, 760)
    panel.show()
    wait_for(panel, lambda: panel.state == "ready")
    try:
        time_gui(panel)  # warm caches and lazy imports on both sides once
        time_headless()
        ours, anchors = [], []
        for _ in range(RUNS):
            ours.append(time_gui(panel))
            anchors.append(time_headless())
        p95, early, end, epochs, elapsed = long_run(panel)
    finally:
        panel.shutdown()
    print(
        bench_line(
            "training_gui_full_speed_500",
            statistics.median(ours),
            statistics.median(anchors),
            GOAL_RATIO,
        )
    )
    print(f"# {epochs} epochs in {elapsed:.1f} s with live plots; RSS {early:.0f} → {end:.0f} MB")
    print(bench_line("training_event_loop_p95_latency", p95, LATENCY_BUDGET_S, 1))
    print(bench_line("training_rss_100k_epochs", end, early, RSS_GOAL))
    return 0 if epochs == LONG_EPOCHS else 1


if __name__ == "__main__":
    raise SystemExit(main())
