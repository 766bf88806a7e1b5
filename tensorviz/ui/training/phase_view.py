"""The five phases of one update (forward, loss, backward, update, zero grad): the phase just run
highlighted with the values it produced. Presents core's PhaseRecord; computes nothing."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QVBoxLayout, QWidget

from tensorviz.core.training.trainer import (
    PHASE_CODE,
    PHASES,
    PhaseRecord,
    forgotten_zero_grad_code,
)
from tensorviz.ui.training.step_labels import mono_font, number_text, steady, title_label
from tensorviz.ui.widgets.appearance_following import FollowsAppearanceLater
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.theme import colour, scaled

PHASE_TITLES = {
    "forward": QT_TRANSLATE_NOOP("PhaseView", "1 Forward"),
    "loss": QT_TRANSLATE_NOOP("PhaseView", "2 Loss"),
    "backward": QT_TRANSLATE_NOOP("PhaseView", "3 Backward"),
    "update": QT_TRANSLATE_NOOP("PhaseView", "4 Update"),
    "zero_grad": QT_TRANSLATE_NOOP("PhaseView", "5 Zero grad"),
}


def _frame_style(active: bool) -> str:
    """A phase's frame in the theme in force: the phase just run stands out as a notice."""
    if active:
        return (
            f"QFrame {{ background: {colour('notice_background').name()}; "
            f"border: 2px solid {colour('notice_border').name()}; border-radius: 4px; }}"
        )
    return (
        f"QFrame {{ background: {colour('surface').name()}; "
        f"border: 1px solid {colour('border').name()}; border-radius: 4px; }}"
    )


def _inner_style(role: str, bold: bool = False) -> str:
    weight = "; font-weight: 600" if bold else ""
    return f"border: none; background: transparent; color: {colour(role).name()}{weight}"


class PhaseView(Retranslating, FollowsAppearanceLater, QWidget):
    """The five phases of one update; the phase just run is highlighted with its values."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        mono = mono_font()
        self.current: str | None = None
        self.record: PhaseRecord | None = None
        self.frames: dict[str, QFrame] = {}
        self.names: dict[str, QLabel] = {}
        self.codes: dict[str, QLabel] = {}
        self.values: dict[str, QLabel] = {}
        self._codes_shown: dict[str, str] = {}
        self.heading = title_label("")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(3)
        layout.addWidget(self.heading)
        for phase in PHASES:
            frame = QFrame()
            row = QGridLayout(frame)
            row.setContentsMargins(6, 2, 6, 2)
            name = QLabel()
            code = steady(QLabel())
            code.setFont(mono)
            code.setProperty("verbatim", True)  # the code the phase runs
            value = steady(QLabel(""))
            value.setFont(mono)
            value.setProperty("verbatim", True)  # names and numbers: w.grad = 0.5
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            row.addWidget(name, 0, 0)
            row.addWidget(code, 0, 1)
            row.addWidget(value, 1, 1)
            row.setColumnStretch(1, 1)
            value.hide()
            self.frames[phase], self.names[phase] = frame, name
            self.codes[phase], self.values[phase] = code, value
            layout.addWidget(frame)
        layout.addStretch(1)
        self.set_codes({})
        self.retranslate()
        self.restyle()

    def retranslate(self) -> None:
        for phase in PHASES:
            self.names[phase].setText(QCoreApplication.translate("PhaseView", PHASE_TITLES[phase]))
        self._show_heading()
        self._measure()

    def restyle(self) -> None:
        """Colours of the theme in force, sizes of the zoom in force."""
        for phase in PHASES:
            self.frames[phase].setStyleSheet(_frame_style(phase == self.current))
            self.names[phase].setStyleSheet(_inner_style("text", bold=True))
            self.codes[phase].setStyleSheet(_inner_style("muted"))
            self.values[phase].setStyleSheet(_inner_style("ink"))
        self._measure()

    def _measure(self) -> None:
        self._name_width = max(
            self.names[p].fontMetrics().horizontalAdvance(self.names[p].text()) for p in PHASES
        ) + scaled(12)
        for phase in PHASES:
            self.names[phase].setMinimumWidth(self._name_width)
        # Tall enough for the phases with one row of values shown (the heights never jump).
        hidden = self.values["forward"].isHidden()
        if hidden:
            self.values["forward"].setText("y_pred[0] = 0")
            self.values["forward"].show()
        self.setMinimumHeight(0)
        self.setMinimumHeight(self.sizeHint().height())
        if hidden:
            self.values["forward"].hide()

    def comfortable_width(self) -> int:
        """The width at which every phase's code shows whole."""
        code = self.codes["update"]
        metrics = code.fontMetrics()
        longest = max(
            metrics.horizontalAdvance(line)
            for text in (*PHASE_CODE.values(), forgotten_zero_grad_code())
            for line in text.splitlines()
        )
        return self._name_width + longest + scaled(40)

    def set_codes(self, codes: dict[str, str]) -> None:
        for phase in PHASES:
            self.codes[phase].setText(codes.get(phase, PHASE_CODE[phase]))
            self.codes[phase].setToolTip(self.codes[phase].text())

    def show_phase(self, record: PhaseRecord) -> None:
        self.clear_highlight()
        self.current = record.phase
        self.record = record
        self.frames[record.phase].setStyleSheet(_frame_style(True))
        self.codes[record.phase].setText(record.code)
        text = "   ".join(f"{name} = {number_text(value)}" for name, value in record.values.items())
        self.values[record.phase].setText(text)
        self.values[record.phase].show()
        self._show_heading()

    def clear_highlight(self) -> None:
        self.current = None
        self.record = None
        for phase in PHASES:
            self.frames[phase].setStyleSheet(_frame_style(False))
            self.values[phase].hide()
        self._show_heading()

    def _show_heading(self) -> None:
        record = self.record
        if record is None:
            self.heading.setText(self.tr("One update, phase by phase (Step phase or N)"))
            return
        phase = QCoreApplication.translate("PhaseView", PHASE_TITLES[record.phase])
        text = self.tr("Epoch %1, batch %2: %3").replace("%1", str(record.epoch))
        self.heading.setText(text.replace("%2", str(record.batch)).replace("%3", phase))
