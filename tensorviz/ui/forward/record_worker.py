"""Records a forward off the GUI thread (the user's model runs there) and lays out the first
picture; the result comes back with the generation it was asked for, so a result for a model
the user has already left is dropped. A forward cannot be interrupted half-way: Cancel drops its
result instead, and closing the window waits for it."""

from __future__ import annotations

import gc
from dataclasses import dataclass

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from tensorviz.core.forward.architecture import Architecture
from tensorviz.core.forward.nested_layout import ArchitectureLayout
from tensorviz.core.forward.recording import record_forward


@dataclass
class RecordedForward:
    architecture: Architecture
    picture: ArchitectureLayout
    outputs: object  # what the forward returned (its tensors root the backward graph)
    modules: dict  # name → nn.Module, for naming the backward graph's leaves


class RecordSignals(QObject):
    recorded = Signal(int, object)  # generation, RecordedForward
    failed = Signal(int, str)  # generation, why the subject could not even be built


class _RecordJob(QRunnable):
    def __init__(self, make_subject, generation: int, signals: RecordSignals) -> None:
        super().__init__()
        self.make_subject, self.generation, self.signals = make_subject, generation, signals

    def run(self) -> None:
        try:
            subject = self.make_subject()
        except Exception as error:  # noqa: BLE001 — a preset or script object that fails to build
            self.signals.failed.emit(self.generation, f"{type(error).__name__}: {error}")
            return
        outputs = []
        record = record_forward(
            subject.target,
            subject.args,
            title=subject.title,
            modules=subject.modules,
            keep_outputs=outputs,
        )
        architecture = Architecture(record)
        picture = architecture.arrange()
        modules = dict(subject.modules)
        if hasattr(subject.target, "named_parameters"):
            modules.setdefault("", subject.target)
        done = RecordedForward(architecture, picture, outputs[0] if outputs else None, modules)
        self.signals.recorded.emit(self.generation, done)


class RecordWorker(QObject):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)
        self.signals = RecordSignals(self)
        self.recorded = self.signals.recorded
        self.failed = self.signals.failed

    def start(self, make_subject, generation: int) -> None:
        # Garbage left by earlier pictures (scenes, items) is collected here, on the GUI thread:
        # collected in the worker, a Qt object's destructor would touch timers from there.
        gc.collect()
        self.pool.start(_RecordJob(make_subject, generation, self.signals))

    def is_running(self) -> bool:
        return self.pool.activeThreadCount() > 0

    def stop(self) -> None:
        self.pool.clear()
        self.pool.waitForDone()
