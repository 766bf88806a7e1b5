"""Read counts for the storage strips, without blocking the GUI thread.

Most layouts (slices, transposes, permutes, expands) never overlap, and core's StorageReads
answers their counts from the strides alone, for just the cells drawn. An overlapping window
(as_strided, unfold) needs strides.read_counts over the whole storage: small ones are counted in
place, big ones in a QThreadPool job that receives only the plain Layout and sends back a NumPy
array tagged with the generation it was asked for; the panel drops stale ones."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from tensorviz.core.memory.storage_reads import StorageReads
from tensorviz.core.memory.storage_sharing import StorageGroup
from tensorviz.core.memory.strides import Layout, cached_read_counts, read_counts

COUNT_IN_PLACE_UP_TO = 1_000_000  # elements and cells: counted in a few milliseconds


class ReadCountSignals(QObject):
    counts_computed = Signal(int, str, object)  # generation, member name, counts (np.ndarray)


class _ReadCountJob(QRunnable):
    def __init__(self, layout: Layout, cells: int, generation: int, name: str, signals) -> None:
        super().__init__()
        self.layout, self.cells, self.generation, self.name = layout, cells, generation, name
        self.signals = signals

    def run(self) -> None:
        counts = read_counts(self.layout, self.cells)
        self.signals.counts_computed.emit(self.generation, self.name, counts)


class ReadCounter(QObject):
    """Gives every strip member a StorageReads at once; counts that need a full pass arrive
    later through `counts_computed(generation, name, counts)` on the GUI thread."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)
        self.signals = ReadCountSignals(self)
        self.counts_computed = self.signals.counts_computed
        self.in_place_up_to = COUNT_IN_PLACE_UP_TO

    def reads_for(self, groups: list[StorageGroup], generation: int) -> dict[str, StorageReads]:
        """groups in drawing order (the shown tensor's first, so its jobs run first)."""
        self.pool.clear()  # jobs for an older picture are no longer wanted
        reads = {}
        for group in groups:
            for member in group.members:
                found = StorageReads(member.layout, group.cells)
                reads[member.name] = found
                if found.known:
                    continue
                small = max(member.layout.numel, group.cells) <= self.in_place_up_to
                if small:
                    found.counts = np.asarray(cached_read_counts(member.layout, group.cells))
                else:
                    self.pool.start(
                        _ReadCountJob(
                            member.layout, group.cells, generation, member.name, self.signals
                        )
                    )
        return reads

    def busy(self) -> bool:
        return self.pool.activeThreadCount() > 0

    def stop(self) -> None:
        self.pool.clear()
        self.pool.waitForDone()
