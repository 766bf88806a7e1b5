"""Lays out big graphs off the GUI thread: core's layout_graph in a QThreadPool job.

Only the plain networkx graph travels to the worker (no torch objects are touched there); the
finished GraphLayout comes back through a queued signal with the generation it was asked for,
so a result for a graph the user has already left is dropped by the panel."""

from __future__ import annotations

import networkx as nx
from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from tensorviz.core.graph_layout.layered_layout import layout_graph

LARGE_GRAPH_NODES = 400  # below this, laying out takes a few milliseconds: done in place


class LayoutSignals(QObject):
    layout_finished = Signal(int, object)  # generation, GraphLayout


class _LayoutJob(QRunnable):
    def __init__(self, graph: nx.DiGraph, generation: int, signals: LayoutSignals) -> None:
        super().__init__()
        self.graph, self.generation, self.signals = graph, generation, signals

    def run(self) -> None:
        self.signals.layout_finished.emit(self.generation, layout_graph(self.graph))


class LayoutWorker(QObject):
    """Starts layouts; `layout_finished(generation, layout)` arrives on the GUI thread."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)
        self.signals = LayoutSignals(self)
        self.layout_finished = self.signals.layout_finished

    def start(self, graph: nx.DiGraph, generation: int) -> None:
        self.pool.start(_LayoutJob(graph.copy(), generation, self.signals))

    def stop(self) -> None:
        self.pool.clear()
        self.pool.waitForDone()
