"""Walk mode controls: step back, step, play/pause through the elements in logical order."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtWidgets import QGridLayout, QLabel, QSpinBox, QToolButton, QWidget

from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.theme import scaled

STEP_MS = 450
BUTTON_WIDTH = 56  # pixels at 100 %: the four buttons line up


def _button() -> QToolButton:
    button = QToolButton()
    button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
    return button


class WalkControls(Retranslating, QWidget):
    position_changed = Signal(int)  # -1 when the walk is reset

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.length = 0
        self.position = -1
        self.timer = QTimer(self)
        self.timer.setInterval(STEP_MS)
        self.timer.timeout.connect(self._on_timer_fired)
        self.back_button = _button()
        self.back_button.setText("◀")
        self.step_button = _button()
        self.play_button = _button()
        self.play_button.setCheckable(True)
        self.reset_button = _button()
        self.speed_label = QLabel()
        self.speed = QSpinBox()
        self.speed.setRange(1, 20)
        self.speed.setValue(2)
        self.speed.valueChanged.connect(self._on_speed_changed)
        self.back_button.clicked.connect(self.back)
        self.step_button.clicked.connect(self.step)
        self.play_button.toggled.connect(self._on_play_changed)
        self.reset_button.clicked.connect(self.reset)
        layout = QGridLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for column, widget in enumerate((self.back_button, self.step_button, self.play_button)):
            layout.addWidget(widget, 0, column)
        layout.addWidget(self.reset_button, 1, 0)
        layout.addWidget(self.speed_label, 1, 1, Qt.AlignmentFlag.AlignRight)
        layout.addWidget(self.speed, 1, 2)
        layout.setColumnStretch(3, 1)
        self._size_buttons()
        self.retranslate()

    def retranslate(self) -> None:
        self.back_button.setToolTip(self.tr("Previous element in logical order"))
        self.step_button.setText(self.tr("Step ▶"))
        self.step_button.setToolTip(self.tr("Next element in logical order"))
        self._name_play_button()
        self.reset_button.setText(self.tr("Reset"))
        self.speed_label.setText(self.tr("speed"))
        self.speed.setSuffix(self.tr(" /s"))
        self.speed.setToolTip(self.tr("Steps per second while playing"))

    def _name_play_button(self) -> None:
        playing = self.play_button.isChecked()
        self.play_button.setText(self.tr("Pause") if playing else self.tr("Play"))

    def _size_buttons(self) -> None:
        for button in (self.back_button, self.step_button, self.play_button, self.reset_button):
            button.setMinimumWidth(scaled(BUTTON_WIDTH))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.FontChange:  # View → Zoom
            self._size_buttons()
        super().changeEvent(event)

    def set_length(self, length: int) -> None:
        self.length = length
        self.play_button.setChecked(False)
        self.position = -1
        self._enable()

    def step(self) -> None:
        if self.position + 1 < self.length:
            self._go(self.position + 1)
        else:
            self.play_button.setChecked(False)

    def back(self) -> None:
        if self.position > 0:
            self._go(self.position - 1)

    def reset(self) -> None:
        self.play_button.setChecked(False)
        self._go(-1)

    def stop(self) -> None:
        self.play_button.setChecked(False)

    def _go(self, position: int) -> None:
        self.position = position
        self._enable()
        self.position_changed.emit(position)

    def _enable(self) -> None:
        self.back_button.setEnabled(self.position > 0)
        self.step_button.setEnabled(self.position + 1 < self.length)
        self.play_button.setEnabled(self.length > 0)

    def _on_play_changed(self, playing: bool) -> None:
        self._name_play_button()
        if playing:
            if self.position + 1 >= self.length:
                self._go(-1)
            self.timer.start()
        else:
            self.timer.stop()

    def _on_speed_changed(self, per_second: int) -> None:
        self.timer.setInterval(int(1000 / per_second))

    def _on_timer_fired(self) -> None:
        self.step()
