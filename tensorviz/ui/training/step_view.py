"""What one step did: the five phases (the current one highlighted, with the values it produced),
the gradients both ways (autograd's .grad beside the hand-derived formulas) and the learned
parameters beside the true and the least-squares values. Presents core records; computes nothing.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from tensorviz.core.training.report import ExperimentInfo, gradients_agree
from tensorviz.core.training.trainer import PHASE_CODE, PHASES, PhaseRecord, StepRecord

PHASE_TITLES = {
    "forward": "1 Forward",
    "loss": "2 Loss",
    "backward": "3 Backward",
    "update": "4 Update",
    "zero_grad": "5 Zero grad",
}
IDLE = "QFrame { background: #f9fafb; border: 1px solid #e5e7eb; border-radius: 4px; }"
ACTIVE = "QFrame { background: #fff4e5; border: 2px solid #f4a261; border-radius: 4px; }"


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
        metrics = self.fontMetrics()
        self._narrow = metrics.horizontalAdvance("-0.00000")
        self._wide = metrics.horizontalAdvance("-0.000000e+00")
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def sizeHint(self) -> QSize:  # noqa: N802 — Qt override
        return QSize(self._wide, super().sizeHint().height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 — Qt override
        return QSize(self._narrow, super().minimumSizeHint().height())


def _number_cell(mono) -> QLabel:
    return NumberCell(mono)


def _set_number(cell: QLabel, text: str) -> None:
    cell.setText(text)
    cell.setToolTip(text)


class PhaseView(QWidget):
    """The five phases of one update; the phase just run is highlighted with its values."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.current: str | None = None
        self.frames: dict[str, QFrame] = {}
        self.codes: dict[str, QLabel] = {}
        self.values: dict[str, QLabel] = {}
        self.heading = _title("")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(3)
        layout.addWidget(self.heading)
        for phase in PHASES:
            frame = QFrame()
            frame.setStyleSheet(IDLE)
            row = QGridLayout(frame)
            row.setContentsMargins(6, 2, 6, 2)
            name = QLabel(PHASE_TITLES[phase])
            name.setStyleSheet("border: none; background: transparent; font-weight: 600")
            name.setMinimumWidth(84)
            code = _steady(QLabel())
            code.setFont(mono)
            code.setStyleSheet("border: none; background: transparent; color: #374151")
            value = _steady(QLabel(""))
            value.setFont(mono)
            value.setStyleSheet("border: none; background: transparent; color: #1f2a44")
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            row.addWidget(name, 0, 0)
            row.addWidget(code, 0, 1)
            row.addWidget(value, 1, 1)
            row.setColumnStretch(1, 1)
            value.hide()
            self.frames[phase], self.codes[phase], self.values[phase] = frame, code, value
            layout.addWidget(frame)
        layout.addStretch(1)
        self.set_codes({})
        self.values["forward"].setText("y_pred[0] = 0")
        self.values["forward"].show()
        self.setMinimumHeight(self.sizeHint().height())
        self.values["forward"].hide()

    def comfortable_width(self) -> int:
        """The width at which every phase's code shows whole."""
        code = self.codes["update"]
        metrics = code.fontMetrics()
        longest = max(
            metrics.horizontalAdvance(line)
            for text in (*PHASE_CODE.values(), "# zero_grad forgotten: .grad keeps accumulating")
            for line in text.splitlines()
        )
        return 84 + longest + 40

    def set_codes(self, codes: dict[str, str]) -> None:
        for phase in PHASES:
            self.codes[phase].setText(codes.get(phase, PHASE_CODE[phase]))
            self.codes[phase].setToolTip(self.codes[phase].text())

    def show_phase(self, record: PhaseRecord) -> None:
        self.clear_highlight()
        self.current = record.phase
        self.frames[record.phase].setStyleSheet(ACTIVE)
        self.codes[record.phase].setText(record.code)
        text = "   ".join(f"{name} = {_fmt(value)}" for name, value in record.values.items())
        self.values[record.phase].setText(text)
        self.values[record.phase].show()
        self.heading.setText(f"Epoch {record.epoch}, batch {record.batch}: {record.phase}")

    def clear_highlight(self) -> None:
        self.current = None
        for phase in PHASES:
            self.frames[phase].setStyleSheet(IDLE)
            self.values[phase].hide()
        self.heading.setText("One update, phase by phase (Step phase or N)")


class GradientView(QFrame):
    """autograd's w.grad, b.grad beside 2/n Σ (w x + b − y) x and 2/n Σ (w x + b − y)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.cells: dict[str, QLabel] = {}
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(10)
        grid.addWidget(_title("Gradients, two ways"), 0, 0, 1, 3)
        grid.addWidget(QLabel("autograd"), 1, 1)
        grid.addWidget(QLabel("by hand"), 1, 2)
        hand = _steady(QLabel("by hand: 2/n Σ (w·x + b − y)·x  and  2/n Σ (w·x + b − y)"))
        hand.setObjectName("hint")
        hand.setWordWrap(True)
        hand.setFixedHeight(2 * hand.fontMetrics().lineSpacing() + 4)
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
        self.verdict.setFixedHeight(3 * self.verdict.fontMetrics().lineSpacing() + 4)
        grid.addWidget(self.verdict, 5, 0, 1, 3)
        grid.setColumnStretch(0, 1)

    def show_record(self, record: StepRecord | None) -> None:
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
            self.verdict.setText(
                f"<span style='color:#2a9d8f'>✓ agree to float tolerance</span> · "
                f"epoch {record.epoch} · |grad| = {record.grad_norm:.4g}"
                + (" (clipped)" if record.clipped else "")
            )
        else:
            self.verdict.setText(
                "<span style='color:#b42318'>✗ differ</span> — .grad holds the sum of every "
                "step's gradient since the last zero_grad, not this step's gradient"
            )


class ResultsView(QFrame):
    """Learned w, b beside the true values and the closed-form least-squares answer."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.cells: dict[str, QLabel] = {}
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(10)
        self.heading = _title("Parameters")
        grid.addWidget(self.heading, 0, 0, 1, 3)
        grid.addWidget(QLabel("w"), 1, 1)
        grid.addWidget(QLabel("b"), 1, 2)
        for row, (key, label) in enumerate(
            (("learned", "learned"), ("true", "true"), ("lstsq", "least squares")), start=2
        ):
            caption = QLabel(label)
            caption.setObjectName("hint")
            grid.addWidget(caption, row, 0)
            for column, name in ((1, "w"), (2, "b")):
                cell = _number_cell(mono)
                grid.addWidget(cell, row, column)
                self.cells[f"{key}_{name}"] = cell
        self.loss = _steady(QLabel(""))
        self.loss.setObjectName("hint")
        self.loss.setWordWrap(True)
        self.loss.setFixedHeight(2 * self.loss.fontMetrics().lineSpacing() + 4)
        grid.addWidget(self.loss, 5, 0, 1, 3)
        self.note = QLabel("")  # why least squares has no unique answer (constant x)
        self.note.setObjectName("hint")
        self.note.setWordWrap(True)
        self.note.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.note.hide()
        grid.addWidget(self.note, 6, 0, 1, 3)
        self.tutorial = QLabel("")  # the tutorial's "Epoch [100/500], Loss: …" lines
        self.tutorial.setFont(mono)
        self.tutorial.setToolTip("What the tutorial's loop prints every 100 epochs")
        self.tutorial.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.tutorial.hide()
        grid.addWidget(self.tutorial, 7, 0, 1, 3)
        grid.setColumnStretch(0, 1)

    def set_experiment(self, info: ExperimentInfo) -> None:
        self.heading.setText("Parameters")
        _set_number(self.cells["true_w"], _fmt(info.true_w))
        _set_number(self.cells["true_b"], _fmt(info.true_b))
        _set_number(self.cells["lstsq_w"], _fmt(info.least_squares[0]))
        _set_number(self.cells["lstsq_b"], _fmt(info.least_squares[1]))
        _set_number(self.cells["learned_w"], _fmt(info.initial[0]))
        _set_number(self.cells["learned_b"], _fmt(info.initial[1]))
        self.loss.setText("initial values from torch.manual_seed(seed); torch.randn(1)")
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
        self.heading.setText("Parameters — final" if final else "Parameters")
        _set_number(self.cells["learned_w"], _fmt(record.w))
        _set_number(self.cells["learned_b"], _fmt(record.b))
        self.loss.setText(f"epoch {record.epoch} · loss {record.loss:.6g}")
