"""Opening a 4096 x 4096 float32 tensor in the Workbench's ValueView, against torch alone.

Ours: create the tensor (torch.randn), show it in a ValueView, wait for its statistics
(`statistics_ready`), scroll the table to the bottom-right cell and wait for that paint.
Anchor: create the same tensor and compute the same statistics with torch directly
(min, max, mean, std, NaN/Inf/zero counts). Interleaved runs, medians.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import torch  # noqa: E402
from PySide6.QtCore import QEvent, QEventLoop, QObject, qInstallMessageHandler  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402
from startup import bench_line  # noqa: E402

from tensorviz.ui.workbench.value_view import ValueView  # noqa: E402

RUNS = 5
GOAL = 2
SIDE = 4096


class PaintWatcher(QObject):
    """Counts paint events of the widget it is installed on."""

    def __init__(self) -> None:
        super().__init__()
        self.paints = 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 — Qt override
        if event.type() == QEvent.Type.Paint:
            self.paints += 1
        return False


def quiet_offscreen_notes(_mode, _context, message: str) -> None:
    # The offscreen plugin's "does not support propagateSizeHints" is not ours; say the rest.
    if "This plugin does not support" not in message:
        print(message, file=sys.stderr)


def wait_for(app: QApplication, done) -> None:
    while not done():
        app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents, 50)


def time_ours(app: QApplication, view: ValueView, watcher: PaintWatcher) -> float:
    view.set_tensor(None)
    app.processEvents()
    summaries = []
    view.statistics_ready.connect(summaries.append)
    start = time.perf_counter()
    tensor = torch.randn(SIDE, SIDE)
    view.set_tensor(tensor, "x")
    wait_for(app, lambda: bool(summaries))
    paints_before = watcher.paints
    last = view.model.index(SIDE - 1, SIDE - 1)
    view.table.scrollTo(last)
    wait_for(app, lambda: watcher.paints > paints_before)
    elapsed = time.perf_counter() - start
    view.statistics_ready.disconnect(summaries.append)
    bars = (view.table.verticalScrollBar(), view.table.horizontalScrollBar())
    if any(bar.value() != bar.maximum() for bar in bars) or summaries[0].max is None:
        raise SystemExit("the table did not reach the bottom-right corner")
    return elapsed


def time_anchor() -> float:
    start = time.perf_counter()
    tensor = torch.randn(SIDE, SIDE)
    for value in (
        tensor.min(),
        tensor.max(),
        tensor.mean(),
        tensor.std(),
        torch.isnan(tensor).sum(),
        torch.isinf(tensor).sum(),
        (tensor == 0).sum(),
    ):
        value.item()
    return time.perf_counter() - start


def main() -> int:
    qInstallMessageHandler(quiet_offscreen_notes)
    app = QApplication([])
    view = ValueView()
    view.resize(1200, 700)
    view.show()
    watcher = PaintWatcher()
    view.table.viewport().installEventFilter(watcher)
    app.processEvents()
    ours, anchors = [], []
    try:
        time_ours(app, view, watcher)  # warm caches and lazy imports on both sides once
        time_anchor()
        for _ in range(RUNS):
            ours.append(time_ours(app, view, watcher))
            anchors.append(time_anchor())
    finally:
        view.shutdown()
        view.close()
    print(
        bench_line("workbench_open_4096", statistics.median(ours), statistics.median(anchors), GOAL)
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
