"""The Runs area against issue 25's budgets, each a real render (offscreen, painted).

1. watch_viewer_event_loop_p95: a writer process appends steps to a run folder at 100 steps/s,
   500 parameter tensors each (plus 100 module columns and histograms every 50 steps), as the
   recorder writes them; the Runs panel follows it live while a 10 ms timer measures how late
   the GUI event loop wakes. The panel's widgets are painted (the heatmap's view counts its
   paint events: a run without any is a MISS). ours = p95 lateness, anchor = 50 ms, goal <= 1.
2. watch_heatmap_redraw: the heatmap of 100,000 steps × 500 tensors (log-normal norms over 8
   decades) redrawn from its data and grabbed to a pixmap (the whole picture painted), turn
   about with a second such run so that every redraw draws new numbers; median of 7 after one
   warm-up. anchor = 100 ms, goal <= 1. The first draw, with the steps binned
   from scratch, is printed beside it.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402
from _timer_lateness import TimerLateness, p95  # noqa: E402
from PySide6.QtCore import QEvent, QEventLoop, QObject, QTimer, qInstallMessageHandler  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402
from startup import bench_line  # noqa: E402

from tensorviz.core.watch.run_updates import FollowedRank, RankUpdate  # noqa: E402
from tensorviz.ui.watch.runs_panel import RunsPanel  # noqa: E402
from tensorviz.ui.window.appearance import Appearance  # noqa: E402

PARAMS = 500
MODULES = 100
RATE = 100  # steps per second
LIVE_S = float(os.environ.get("BENCH_WATCH_LIVE_S", "20"))
TICK_MS = 10
LATENCY_BUDGET_S = 0.050
HEATMAP_STEPS = 100_000
REDRAW_BUDGET_S = 0.100

WRITER = r"""
import sys, time
import numpy as np
from pathlib import Path
from tensorviz.core.watch.run_writer import RankStreamWriter, write_run_file
folder, seconds = Path(sys.argv[1]), float(sys.argv[5])
params, modules, rate = map(int, sys.argv[2:5])
folder.mkdir(parents=True, exist_ok=True)
write_run_file(folder, name=folder.name, world_size=1, every=1, histograms_every=50)
writer = RankStreamWriter(folder, 0)
writer.write_schema({"schema": 0,
    "params": [{"name": f"blocks.{i // 4}.layer.{i % 4}.weight", "shape": [64, 64],
                "module": f"blocks.{i // 4}.layer.{i % 4}"} for i in range(params)],
    "modules": [{"name": f"blocks.{i}", "type": "Linear", "kind": "relu"} for i in range(modules)]})
writer.write_event("started")
rng = np.random.default_rng(0)
scale = np.logspace(-6, 0, params).astype(np.float32)
start = time.perf_counter()
step = 0
while time.perf_counter() - start < seconds:
    step += 1
    arrays = {"grad_norm": (scale * rng.lognormal(0, 0.3, params)).astype(np.float32),
              "weight_norm": np.ones(params, np.float32),
              "act_mean": rng.random(modules, dtype=np.float32),
              "act_std": rng.random(modules, dtype=np.float32),
              "act_fraction": rng.random(modules, dtype=np.float32)}
    if step % 10 == 0:
        arrays["update_ratio"] = rng.lognormal(-7, 1, params).astype(np.float32)
    writer.write_step({"step": step, "schema": 0, "time": time.time(), "loss": 1 / step,
                       "scalars": {"lr": 0.1}}, arrays)
    if step % 50 == 0:
        tensors = [["grad", f"blocks.{i // 4}.layer.{i % 4}.weight", -1.0, 1.0]
                   for i in range(params)]
        writer.write_histograms({"step": step, "bins": 32, "tensors": tensors},
                                rng.integers(0, 100, params * 32).astype(np.uint32))
    next_at = start + step / rate
    time.sleep(max(0.0, next_at - time.perf_counter()))
writer.write_event("ended", status="finished", step=step)
writer.close()
print(step)
"""


def quiet_offscreen_notes(_mode, _context, message: str) -> None:
    if "This plugin does not support" not in message:
        print(message, file=sys.stderr)


class PaintCounter(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.paints = 0

    def eventFilter(self, _watched, event) -> bool:  # noqa: N802 (Qt override)
        if event.type() == QEvent.Type.Paint:
            self.paints += 1
        return False


def wait(seconds: float) -> None:
    loop = QEventLoop()
    QTimer.singleShot(int(seconds * 1000), loop.quit)
    loop.exec()


def live_lateness(panel: RunsPanel, folder: Path) -> tuple[float, int, int, int]:
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(folder), str(PARAMS), str(MODULES), str(RATE),
         str(LIVE_S)],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    while not (folder / "run.json").exists():
        if writer.poll() is not None:
            raise SystemExit("the writer process failed")
        time.sleep(0.01)
    counter = PaintCounter()
    panel.heatmap.view.viewport().installEventFilter(counter)
    panel.open_run(folder)
    ticker = TimerLateness(TICK_MS)
    ticker.start()
    while writer.poll() is None:
        wait(0.2)
    ticker.stop()
    written = int(writer.stdout.read().strip() or 0)
    deadline = time.perf_counter() + 30
    while time.perf_counter() < deadline and (
        panel.current_rank() is None or panel.current_rank().rows < written
    ):
        wait(0.1)
    shown = panel.current_rank().rows if panel.current_rank() else 0
    return p95(ticker.lateness), written, shown, counter.paints


def big_rank(seed: int) -> FollowedRank:
    rng = np.random.default_rng(seed)
    scale = np.logspace(-7, 1, PARAMS).astype(np.float32)
    norms = (scale * rng.lognormal(0, 0.5, (HEATMAP_STEPS, PARAMS))).astype(np.float32)
    names = [f"blocks.{i // 4}.layer.{i % 4}.weight" for i in range(PARAMS)]
    rank = FollowedRank(0)
    rank.apply(RankUpdate(
        rank=0, first_row=0, steps=np.arange(1, HEATMAP_STEPS + 1), loss=np.ones(HEATMAP_STEPS),
        times=np.zeros(HEATMAP_STEPS), param_names=names, grad_norm=norms,
        update_ratio=np.full((HEATMAP_STEPS, 0), np.nan, np.float32)[:, :0],
        scalar_names=[], scalars=np.zeros((HEATMAP_STEPS, 0)), histograms=[],
        param_modules={n: n.rsplit(".", 1)[0] for n in names}, module_types={}, ended=None,
    ))  # fmt: skip
    return rank, norms, names


def heatmap_redraw(panel: RunsPanel) -> tuple[float, float]:
    heatmap = panel.heatmap
    rank, norms, names = big_rank(1)
    other = big_rank(2)[0]  # redraws alternate between two runs: each one is new data
    start = time.perf_counter()
    first = FollowedRank(0)
    first.param_names = names
    first.grad_bins.extend(norms)
    first._steps.extend(np.column_stack([np.arange(1, HEATMAP_STEPS + 1), np.ones(HEATMAP_STEPS),
                                         np.zeros(HEATMAP_STEPS)]))  # fmt: skip
    heatmap.show_rank(first)
    heatmap.view.grab()
    first_draw = time.perf_counter() - start
    times = []
    for index in range(8):
        start = time.perf_counter()
        heatmap.show_rank(rank if index % 2 else other)
        picture = heatmap.view.grab()
        elapsed = time.perf_counter() - start
        if picture.isNull():
            raise SystemExit("the heatmap grabbed an empty picture")
        if index:
            times.append(elapsed)
    return statistics.median(times), first_draw


def main() -> int:
    qInstallMessageHandler(quiet_offscreen_notes)
    app = QApplication([])  # noqa: F841 (kept alive for the whole run)
    Appearance.shared().apply("light", 1.0)
    panel = RunsPanel()
    panel.resize(1060, 720)
    panel.show()
    try:
        with tempfile.TemporaryDirectory() as scratch:
            p95, written, shown, paints = live_lateness(panel, Path(scratch) / "live")
        panel.follower.stop()
        redraw, first_draw = heatmap_redraw(panel)
    finally:
        panel.shutdown()
    print(f"# live: {written} steps written in {LIVE_S:.0f} s, {shown} shown, "
          f"{paints} paints of the heatmap")  # fmt: skip
    line = bench_line("watch_viewer_event_loop_p95", p95, LATENCY_BUDGET_S, 1.0)
    if paints == 0 or shown < written:
        line = line.replace(" PASS", " MISS")
    print(line)
    print(f"# heatmap {HEATMAP_STEPS:,} steps × {PARAMS}: first draw (binned from scratch) "
          f"{first_draw * 1000:.0f} ms")  # fmt: skip
    print(bench_line("watch_heatmap_redraw", redraw, REDRAW_BUDGET_S, 1.0))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
