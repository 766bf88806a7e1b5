"""What one step did: the five phases (the current one highlighted, with the values it produced),
the gradients both ways (autograd's .grad beside the hand-derived formulas) and the learned
parameters beside the true and the least-squares values. Presents core records; computes nothing.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QSize, Qt
from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QLabel,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from tensorviz.core.training.report import ExperimentInfo, gradients_agree
from tensorviz.core.training.trainer import (
    PHASE_CODE,
    PHASES,
    PhaseRecord,
    StepRecord,
    forgotten_zero_grad_code,
)
from tensorviz.ui.training.appearance_following import FollowsAppearance
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


def mono_font() -> QFont:
    """The system's fixed-width family and nothing else: the size stays inherited from the
    parent widget, so it follows the app's font and the zoom by itself."""
    font = QFont()
    font.setFamilies(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont).families())
    font.setStyleHint(QFont.StyleHint.Monospace)
    return font


def _fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.6g}"


def _title(text: str) -> QLabel:
    label = QLabel(text)
    label.setObjectName("sectionTitle")
    return _steady(label)


def _steady(label: QLabel) -> QLabel:
    """A label whose changing text never re-lays out the panel (and so never resizes the plots,
    which is the most expensive thing a frame can do)."""
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
    label.setMinimumWidth(0)
    return label


class NumberCell(QLabel):
    """A number as wide as any value needs, narrower on a narrow window (its tooltip holds the
    value then). Its size hints never follow the text, so updates never re-lay out the panel."""

    def __init__(self, mono) -> None:
        super().__init__("—")
        self.setFont(mono)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def sizeHint(self) -> QSize:  # noqa: N802 — Qt override (the font follows the zoom)
        wide = self.fontMetrics().horizontalAdvance("-0.000000e+00")
        return QSize(wide, super().sizeHint().height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 — Qt override
        narrow = self.fontMetrics().horizontalAdvance("-0.00000")
        return QSize(narrow, super().minimumSizeHint().height())


def _number_cell(mono) -> QLabel:
    return NumberCell(mono)


def _set_number(cell: QLabel, text: str) -> None:
    cell.setText(text)
    cell.setToolTip(text)


class PhaseView(Retranslating, FollowsAppearance, QWidget):
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
        self.heading = _title("")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(3)
        layout.addWidget(self.heading)
        for phase in PHASES:
            frame = QFrame()
            row = QGridLayout(frame)
            row.setContentsMargins(6, 2, 6, 2)
            name = QLabel()
            code = _steady(QLabel())
            code.setFont(mono)
            code.setProperty("verbatim", True)  # the code the phase runs
            value = _steady(QLabel(""))
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
        text = "   ".join(f"{name} = {_fmt(value)}" for name, value in record.values.items())
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


class GradientView(Retranslating, FollowsAppearance, QFrame):
    """autograd's w.grad, b.grad beside 2/n Σ (w x + b − y) x and 2/n Σ (w x + b − y)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        mono = mono_font()
        self.cells: dict[str, QLabel] = {}
        self.record: StepRecord | None = None
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(10)
        self.title = _title("")
        grid.addWidget(self.title, 0, 0, 1, 3)
        self.auto_heading, self.hand_heading = QLabel(), QLabel()
        grid.addWidget(self.auto_heading, 1, 1)
        grid.addWidget(self.hand_heading, 1, 2)
        self.hand = hand = _steady(QLabel())
        hand.setObjectName("hint")
        hand.setWordWrap(True)
        formulas = (("w", "dL/dw  w.grad"), ("b", "dL/db  b.grad"))
        for row, (name, label) in enumerate(formulas, start=2):
            caption = QLabel(label)
            caption.setObjectName("hint")
            grid.addWidget(caption, row, 0)
            for column, kind in ((1, "auto"), (2, "hand")):
                cell = _number_cell(mono)
                grid.addWidget(cell, row, column)
                self.cells[f"{kind}_{name}"] = cell
        grid.addWidget(hand, 4, 0, 1, 3)
        self.verdict = _steady(QLabel(""))
        self.verdict.setWordWrap(True)  # three lines: the longest verdict wraps to three
        grid.addWidget(self.verdict, 5, 0, 1, 3)
        grid.setColumnStretch(0, 1)
        self.retranslate()

    def retranslate(self) -> None:
        self.title.setText(self.tr("Gradients, two ways"))
        self.auto_heading.setText(self.tr("autograd"))
        self.hand_heading.setText(self.tr("by hand"))
        self.hand.setText(self.tr("by hand: 2/n Σ (w·x + b − y)·x  and  2/n Σ (w·x + b − y)"))
        self.restyle()

    def restyle(self) -> None:
        """Heights of the zoom in force, the verdict's colours of the theme in force."""
        self.hand.setFixedHeight(2 * self.hand.fontMetrics().lineSpacing() + 4)
        self.verdict.setFixedHeight(3 * self.verdict.fontMetrics().lineSpacing() + 4)
        self.show_record(self.record)

    def show_record(self, record: StepRecord | None) -> None:
        self.record = record
        if record is None:
            for cell in self.cells.values():
                cell.setText("—")
            self.verdict.setText("")
            return
        _set_number(self.cells["auto_w"], f"{record.grad_w:+.6g}")
        _set_number(self.cells["auto_b"], f"{record.grad_b:+.6g}")
        _set_number(self.cells["hand_w"], f"{record.hand_grad_w:+.6g}")
        _set_number(self.cells["hand_b"], f"{record.hand_grad_b:+.6g}")
        if gradients_agree(record):
            agree = self.tr("✓ agree to float tolerance")
            where = self.tr("epoch %1 · |grad| = %2").replace("%1", str(record.epoch))
            where = where.replace("%2", f"{record.grad_norm:.4g}")
            clipped = self.tr(" (clipped)") if record.clipped else ""
            self.verdict.setText(
                f"<span style='color:{colour('ok_text').name()}'>{agree}</span> · {where}{clipped}"
            )
        else:
            differ = self.tr("✗ differ")
            why = self.tr(
                ".grad holds the sum of every step's gradient since the last zero_grad, not this "
                "step's gradient"
            )
            self.verdict.setText(
                f"<span style='color:{colour('error_text').name()}'>{differ}</span> — {why}"
            )


RESULT_ROWS = (
    ("learned", QT_TRANSLATE_NOOP("ResultsView", "learned")),
    ("true", QT_TRANSLATE_NOOP("ResultsView", "true")),
    ("lstsq", QT_TRANSLATE_NOOP("ResultsView", "least squares")),
)


class ResultsView(Retranslating, FollowsAppearance, QFrame):
    """Learned w, b beside the true values and the closed-form least-squares answer."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        mono = mono_font()
        self.cells: dict[str, QLabel] = {}
        self.captions: dict[str, QLabel] = {}
        self.record: StepRecord | None = None
        self.final = False
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(10)
        self.heading = _title("")
        grid.addWidget(self.heading, 0, 0, 1, 3)
        grid.addWidget(QLabel("w"), 1, 1)
        grid.addWidget(QLabel("b"), 1, 2)
        for row, (key, _label) in enumerate(RESULT_ROWS, start=2):
            caption = QLabel()
            self.captions[key] = caption
            caption.setObjectName("hint")
            grid.addWidget(caption, row, 0)
            for column, name in ((1, "w"), (2, "b")):
                cell = _number_cell(mono)
                grid.addWidget(cell, row, column)
                self.cells[f"{key}_{name}"] = cell
        self.loss = _steady(QLabel(""))
        self.loss.setObjectName("hint")
        self.loss.setWordWrap(True)
        grid.addWidget(self.loss, 5, 0, 1, 3)
        self.note = QLabel("")  # why least squares has no unique answer (constant x)
        self.note.setObjectName("hint")
        self.note.setWordWrap(True)
        self.note.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.note.hide()
        grid.addWidget(self.note, 6, 0, 1, 3)
        self.tutorial = QLabel("")  # the tutorial's "Epoch [100/500], Loss: …" lines
        self.tutorial.setFont(mono)
        self.tutorial.setProperty("verbatim", True)  # "Epoch [100/500], Loss: …" as printed
        self.tutorial.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.tutorial.hide()
        grid.addWidget(self.tutorial, 7, 0, 1, 3)
        grid.setColumnStretch(0, 1)
        self.retranslate()

    def retranslate(self) -> None:
        for key, label in RESULT_ROWS:
            self.captions[key].setText(QCoreApplication.translate("ResultsView", label))
        self.tutorial.setToolTip(self.tr("What the tutorial's loop prints every 100 epochs"))
        self._show_texts()
        self._measure()

    def restyle(self) -> None:
        self._measure()

    def _measure(self) -> None:
        self.loss.setFixedHeight(2 * self.loss.fontMetrics().lineSpacing() + 4)

    def _show_texts(self) -> None:
        final = self.final and self.record is not None
        self.heading.setText(self.tr("Parameters — final") if final else self.tr("Parameters"))
        if self.record is None:
            self.loss.setText(
                self.tr("initial values from torch.manual_seed(seed); torch.randn(1)")
            )
        else:
            text = self.tr("epoch %1 · loss %2").replace("%1", str(self.record.epoch))
            self.loss.setText(text.replace("%2", f"{self.record.loss:.6g}"))

    def set_experiment(self, info: ExperimentInfo) -> None:
        self.record, self.final = None, False
        self._show_texts()
        _set_number(self.cells["true_w"], _fmt(info.true_w))
        _set_number(self.cells["true_b"], _fmt(info.true_b))
        _set_number(self.cells["lstsq_w"], _fmt(info.least_squares[0]))
        _set_number(self.cells["lstsq_b"], _fmt(info.least_squares[1]))
        _set_number(self.cells["learned_w"], _fmt(info.initial[0]))
        _set_number(self.cells["learned_b"], _fmt(info.initial[1]))
        self.note.setText(info.note)
        self.note.setVisible(bool(info.note))
        self.tutorial.clear()
        self.tutorial.hide()

    def add_tutorial_lines(self, lines: list[str]) -> None:
        if lines:
            shown = self.tutorial.text()
            self.tutorial.setText("\n".join(([shown] if shown else []) + lines))
            self.tutorial.show()

    def show_record(self, record: StepRecord, final: bool) -> None:
        self.record, self.final = record, final
        _set_number(self.cells["learned_w"], _fmt(record.w))
        _set_number(self.cells["learned_b"], _fmt(record.b))
        self._show_texts()
