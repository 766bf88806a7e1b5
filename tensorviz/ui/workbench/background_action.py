"""Heavy Workbench actions off the GUI thread: a worker runs the action's torch half
(PreparedAction.compute) while a busy bar says what is computing and offers to discard it; the
workspace half (finish) then runs back on the GUI thread.

A torch kernel cannot be interrupted, so Discard lets it finish in the background and drops its
result (generation counter) — the Workbench is usable again at once."""

from __future__ import annotations

import time

from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from tensorviz.core.explain.errors import explain_error
from tensorviz.core.tensors.workbench_actions import ActionError, PreparedAction
from tensorviz.ui.widgets.appearance_following import on_appearance_changed
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.theme import scaled
from tensorviz.ui.workbench.text_arguments import arg

BAR_WIDTH = 160  # px at 100 %


class _Relay(QObject):
    """Carries the worker's result to the GUI thread (queued across threads)."""

    computed = Signal(int, object)  # generation, result
    failed = Signal(int, object)  # generation, ExplainedError


class _ComputeJob(QRunnable):
    def __init__(self, prepared: PreparedAction, generation: int, relay: _Relay) -> None:
        super().__init__()
        self._prepared, self._generation, self._relay = prepared, generation, relay

    def run(self) -> None:
        try:
            result = self._prepared.compute()
        except ActionError as error:
            self._relay.failed.emit(self._generation, error.explained)
            return
        except BaseException as error:  # noqa: BLE001 — explained to the user, never a crash
            self._relay.failed.emit(self._generation, explain_error(error))
            return
        self._relay.computed.emit(self._generation, result)


class BackgroundAction(Retranslating, QWidget):
    """The busy bar, shown only while an action computes; one action at a time."""

    finished = Signal(object, object)  # PreparedAction, its computed result
    failed = Signal(object)  # ExplainedError
    discarded = Signal(str)  # the code line that was dropped
    busy_changed = Signal(bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._relay = _Relay(self)
        self._relay.computed.connect(self._on_computed)
        self._relay.failed.connect(self._on_failed)
        self._generation = 0
        self._prepared: PreparedAction | None = None
        self._started = 0.0
        self.label = QLabel()
        self.bar = QProgressBar()
        self.bar.setRange(0, 0)  # torch gives no progress: an honest "working" bar
        self.bar.setTextVisible(False)
        self.discard_button = QPushButton()
        self.discard_button.clicked.connect(self.discard)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.bar)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.discard_button)
        self._clock = QTimer(self)
        self._clock.setInterval(200)
        self._clock.timeout.connect(self._show_elapsed)
        on_appearance_changed(self._on_appearance_changed)
        self._on_appearance_changed()
        self.retranslate()
        self.hide()

    def retranslate(self) -> None:
        self.discard_button.setText(self.tr("Discard"))
        self.discard_button.setToolTip(
            self.tr(
                "Stop waiting: torch finishes this computation in the background and its result "
                "is dropped (Esc)"
            )
        )
        self._show_elapsed()

    def _on_appearance_changed(self) -> None:
        self.bar.setMaximumWidth(scaled(BAR_WIDTH))

    def is_busy(self) -> bool:
        return self._prepared is not None

    def start(self, prepared: PreparedAction) -> None:
        self._generation += 1
        self._prepared = prepared
        self._started = time.monotonic()
        self._show_elapsed()
        self._clock.start()
        self.show()
        self.busy_changed.emit(True)
        self._pool.start(_ComputeJob(prepared, self._generation, self._relay))

    def discard(self) -> None:
        if self._prepared is None:
            return
        code = self._prepared.code
        self._done()
        self.discarded.emit(code)

    def shutdown(self) -> None:
        """Drop any running action and join its thread (window closing)."""
        self._done()
        self._pool.waitForDone()

    def _done(self) -> None:
        self._generation += 1
        self._prepared = None
        self._clock.stop()
        self.hide()
        self.busy_changed.emit(False)

    def _show_elapsed(self) -> None:
        if self._prepared is not None:
            elapsed = time.monotonic() - self._started
            text = arg(self.tr("Computing %1 … %2 s"), self._prepared.code, f"{elapsed:.1f}")
            self.label.setText(text)

    def _on_computed(self, generation: int, result) -> None:
        if generation != self._generation or self._prepared is None:
            return  # discarded: the result is dropped
        prepared = self._prepared
        self._done()
        self.finished.emit(prepared, result)

    def _on_failed(self, generation: int, explained) -> None:
        if generation != self._generation:
            return
        self._done()
        self.failed.emit(explained)
