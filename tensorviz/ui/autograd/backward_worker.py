"""Runs the recorded backward pass off the GUI thread: a big model's backward takes seconds (a
ResNet-ish CNN on a batch of images: ~24 s on two cores), and the window must stay responsive.
`recorded(generation, record)` arrives on the GUI thread; the panel drops stale generations."""

from __future__ import annotations

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from tensorviz.core.autograd.backward_steps import record_backward


class _Signals(QObject):
    recorded = Signal(int, object)  # generation, BackwardRecord


class _BackwardJob(QRunnable):
    def __init__(self, arguments: tuple, generation: int, signals: _Signals) -> None:
        super().__init__()
        self.arguments, self.generation, self.signals = arguments, generation, signals

    def run(self) -> None:
        graph, root, gradient, retain_graph = self.arguments
        record = record_backward(graph, root, gradient, retain_graph=retain_graph)
        self.signals.recorded.emit(self.generation, record)


class BackwardWorker(QObject):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)
        self.signals = _Signals(self)
        self.recorded = self.signals.recorded

    def is_running(self) -> bool:
        return self.pool.activeThreadCount() > 0

    def start(self, graph, root, gradient, retain_graph: bool, generation: int) -> None:
        self.pool.start(
            _BackwardJob((graph, root, gradient, retain_graph), generation, self.signals)
        )

    def stop(self) -> None:
        self.pool.clear()
        self.pool.waitForDone()
