"""Pause / Step / Continue / Run to step N / Inspect this step for a watched run: buttons that
write the run folder's control channel (core/watch/step_control.py), the loop's state read back
from its events ("running · step 812", "paused at step 812"), and the viewer's heartbeat, which
tells the recorder someone is still there (a pause is released ~15 s after it stops).

The shortcuts (F6, F10, F8, Ctrl+Shift+I) act while focus is inside the bar, or inside the
widget given to `install_shortcuts_on` (the Runs panel that holds it).
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QSpinBox, QWidget

from tensorviz.core.watch.loop_state import LoopFollower, LoopState, loop_state
from tensorviz.core.watch.run_reader import NotARunFolderError, RunReader, read_run_file
from tensorviz.core.watch.step_control import BEAT_SECONDS, ControlCommandError, beat, send
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.shortcut_buttons import retitle_shortcut_button, shortcut_button

REFRESH_MS = 250  # how often the bar reads the run's new events


class StepControlBar(Retranslating, QWidget):
    """Takes the run folder. By itself it follows the run lightly (core's LoopFollower: new
    events and the last step frame's header); a panel whose RunReader lives in the GUI thread
    may pass it as `reader` instead (the bar then only reads it, the panel refreshes it)."""

    command_sent = Signal(str)  # "pause", "step", "continue", "run_to", "inspect"
    state_changed = Signal(str, int)  # LoopState.state, LoopState.step

    def __init__(
        self,
        folder: str | os.PathLike,
        reader: RunReader | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.folder = Path(folder)
        self.reader = reader
        self.follower: LoopFollower | None = None
        self.state = LoopState("waiting")
        self.pending: str | None = None  # a command sent whose effect has not shown yet
        self.problem = ""
        self.pause_button = shortcut_button(self, "", "F6", lambda: self._send("pause"))
        self.step_button = shortcut_button(self, "", "F10", lambda: self._send("step"))
        self.continue_button = shortcut_button(self, "", "F8", lambda: self._send("continue"))
        self.run_to_spin = QSpinBox()
        self.run_to_spin.setRange(1, 2_000_000_000)
        self.run_to_spin.setValue(100)
        self.run_to_spin.valueChanged.connect(lambda _value: self._show_state())
        self.run_to_button = shortcut_button(self, "", "Ctrl+Shift+R", self._send_run_to)
        self.inspect_button = shortcut_button(
            self, "", "Ctrl+Shift+I", lambda: self._send("inspect")
        )
        self.status_label = QLabel()
        self.status_label.setObjectName("mutedLabel")
        self.status_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        for widget in (self.pause_button, self.step_button, self.continue_button,
                       self.run_to_button, self.run_to_spin, self.inspect_button):  # fmt: skip
            row.addWidget(widget)
        row.addWidget(self.status_label, 1)
        self.refresh_timer = QTimer(self)
        self.refresh_timer.timeout.connect(self.refresh)
        self.refresh_timer.start(REFRESH_MS)
        self.heartbeat_timer = QTimer(self)
        self.heartbeat_timer.timeout.connect(self._beat)
        self.retranslate()
        self.refresh()

    # -- texts

    def retranslate(self) -> None:
        retitle_shortcut_button(self.pause_button, self.tr("Pause"))
        retitle_shortcut_button(self.step_button, self.tr("Step"))
        retitle_shortcut_button(self.continue_button, self.tr("Continue"))
        retitle_shortcut_button(self.run_to_button, self.tr("Run to step"))
        retitle_shortcut_button(self.inspect_button, self.tr("Inspect this step"))
        self.pause_button.setToolTip(
            self.tr("Hold your training loop at its next step boundary (F6)")
        )
        self.step_button.setToolTip(self.tr("Let one more step run, then hold again (F10)"))
        self.continue_button.setToolTip(self.tr("Let the loop run on at full speed (F8)"))
        self.run_to_button.setToolTip(
            self.tr("Run until the step in the box, then hold there (Ctrl+Shift+R)")
        )
        self.run_to_spin.setToolTip(self.tr("The step to hold the loop at"))
        self.inspect_button.setToolTip(
            self.tr(
                "Open this step's batch, outputs, loss, parameters, gradients and autograd graph "
                "in a tensorviz window of the training process (Ctrl+Shift+I)"
            )
        )
        self._show_state()

    def status_text(self) -> str:
        state, step = self.state.state, self.state.step
        if self.problem:
            return self.problem
        if state == "ended":
            texts = {
                "error": self.tr("stopped with an error at step %1"),
                "interrupted": self.tr("interrupted at step %1"),
            }
            return texts.get(self.state.status, self.tr("finished at step %1")).replace(
                "%1", str(step)
            )
        if state == "paused":
            text = self.tr("paused at step %1").replace("%1", str(step))
            if self.pending == "inspect":
                text = self.tr("%1 · opening it in the training process…").replace("%1", text)
            return text
        if self.pending == "pause":
            return self.tr("running · step %1 · pausing…").replace("%1", str(step))
        if state == "running":
            return self.tr("running · step %1").replace("%1", str(step))
        return self.tr("waiting for the first step")

    # -- state

    def refresh(self) -> None:
        """Read what the run wrote since the last look and show where the loop stands."""
        if self.reader is not None:
            state = loop_state(self.reader.ranks)
        else:
            if self.follower is None:
                try:
                    read_run_file(self.folder)
                except NotARunFolderError as error:
                    self.problem = str(error)
                    self._show_state()
                    return
                self.problem = ""
                self.follower = LoopFollower(self.folder)
            state = self.follower.refresh()
        if state != self.state:
            if state.state != self.state.state or state.state == "paused":
                self.pending = None  # what was asked has shown: held, let go, or ended
            self.state = state
            self.state_changed.emit(state.state, state.step)
        self._show_state()

    def _show_state(self) -> None:
        state = self.state.state
        paused = state == "paused"
        live = state in ("waiting", "running", "paused") and not self.problem
        self.pause_button.setEnabled(live and not paused and self.pending is None)
        self.step_button.setEnabled(live and paused)
        self.continue_button.setEnabled(live and paused)
        self.inspect_button.setEnabled(live and paused)
        self.run_to_spin.blockSignals(True)
        self.run_to_spin.setMinimum(self.state.step + 1 if live else 1)
        self.run_to_spin.blockSignals(False)
        self.run_to_spin.setEnabled(live)
        self.run_to_button.setEnabled(live and self.run_to_spin.value() > self.state.step)
        self.status_label.setText(self.status_text())

    # -- commands

    def _send(self, command: str, step: int | None = None) -> None:
        try:
            send(self.folder, command, step)
        except (ControlCommandError, OSError) as error:
            self.problem = str(error)
            self._show_state()
            return
        self.pending, self.problem = command, ""
        self._show_state()
        self.command_sent.emit(command)

    def _send_run_to(self) -> None:
        self._send("run_to", self.run_to_spin.value())

    # -- the viewer's heartbeat

    def _beat(self) -> None:
        if self.window().isVisible():  # a page of a stacked area still beats; a closed window not
            try:
                beat(self.folder)
            except OSError:
                pass  # a folder gone or read-only: the recorder goes on by itself

    def showEvent(self, event) -> None:  # noqa: N802 (Qt override)
        if not self.heartbeat_timer.isActive():
            self._beat()
            self.heartbeat_timer.start(int(BEAT_SECONDS * 1000))
        super().showEvent(event)

    def install_shortcuts_on(self, widget: QWidget) -> None:
        """Make F6 / F10 / F8 / Ctrl+Shift+R / Ctrl+Shift+I act while focus is anywhere inside
        `widget` (the panel holding the bar), not only inside the bar."""
        for button in (self.pause_button, self.step_button, self.continue_button,
                       self.run_to_button, self.inspect_button):  # fmt: skip
            self.removeAction(button.shortcut_action)
            widget.addAction(button.shortcut_action)

    def shutdown(self) -> None:
        """Stop reading and beating (the panel closes, or shows another run)."""
        self.refresh_timer.stop()
        self.heartbeat_timer.stop()
