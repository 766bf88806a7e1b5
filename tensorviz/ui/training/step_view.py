"""What one step did (beside its phases, phase_view.py): the gradients both ways (autograd's .grad
beside the hand-derived formulas) and the learned parameters beside the true and the
least-squares values. Presents core records; computes nothing.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QSizePolicy, QWidget

from tensorviz.core.training.report import ExperimentInfo, gradients_agree
from tensorviz.core.training.trainer import StepRecord
from tensorviz.ui.training.step_labels import (
    NumberCell,
    PrintedLines,
    mono_font,
    number_text,
    set_number,
    steady,
    title_label,
)
from tensorviz.ui.widgets.appearance_following import FollowsAppearanceLater
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.theme import colour


class GradientView(Retranslating, FollowsAppearanceLater, QFrame):
    """autograd's w.grad, b.grad beside 2/n Σ (w x + b − y) x and 2/n Σ (w x + b − y)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        mono = mono_font()
        self.cells: dict[str, QLabel] = {}
        self.record: StepRecord | None = None
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(10)
        self.title = title_label("")
        grid.addWidget(self.title, 0, 0, 1, 3)
        self.auto_heading, self.hand_heading = QLabel(), QLabel()
        grid.addWidget(self.auto_heading, 1, 1)
        grid.addWidget(self.hand_heading, 1, 2)
        self.hand = hand = steady(QLabel())
        hand.setObjectName("hint")
        hand.setWordWrap(True)
        formulas = (("w", "dL/dw  w.grad"), ("b", "dL/db  b.grad"))
        for row, (name, label) in enumerate(formulas, start=2):
            caption = QLabel(label)
            caption.setObjectName("hint")
            grid.addWidget(caption, row, 0)
            for column, kind in ((1, "auto"), (2, "hand")):
                cell = NumberCell(mono)
                grid.addWidget(cell, row, column)
                self.cells[f"{kind}_{name}"] = cell
        grid.addWidget(hand, 4, 0, 1, 3)
        self.verdict = steady(QLabel(""))
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
        set_number(self.cells["auto_w"], f"{record.grad_w:+.6g}")
        set_number(self.cells["auto_b"], f"{record.grad_b:+.6g}")
        set_number(self.cells["hand_w"], f"{record.hand_grad_w:+.6g}")
        set_number(self.cells["hand_b"], f"{record.hand_grad_b:+.6g}")
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


class ResultsView(Retranslating, FollowsAppearanceLater, QFrame):
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
        self.heading = title_label("")
        grid.addWidget(self.heading, 0, 0, 1, 3)
        grid.addWidget(QLabel("w"), 1, 1)
        grid.addWidget(QLabel("b"), 1, 2)
        for row, (key, _label) in enumerate(RESULT_ROWS, start=2):
            caption = QLabel()
            self.captions[key] = caption
            caption.setObjectName("hint")
            grid.addWidget(caption, row, 0)
            for column, name in ((1, "w"), (2, "b")):
                cell = NumberCell(mono)
                grid.addWidget(cell, row, column)
                self.cells[f"{key}_{name}"] = cell
        self.loss = steady(QLabel(""))
        self.loss.setObjectName("hint")
        self.loss.setWordWrap(True)
        grid.addWidget(self.loss, 5, 0, 1, 3)
        self.note = QLabel("")  # why least squares has no unique answer (constant x)
        self.note.setObjectName("hint")
        self.note.setWordWrap(True)
        self.note.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.note.hide()
        grid.addWidget(self.note, 6, 0, 1, 3)
        self.tutorial = PrintedLines(mono)  # the tutorial's "Epoch [100/500], Loss: …" lines
        self.tutorial.setProperty("verbatim", True)  # "Epoch [100/500], Loss: …" as printed
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
        self.tutorial.fit_height()

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
        set_number(self.cells["true_w"], number_text(info.true_w))
        set_number(self.cells["true_b"], number_text(info.true_b))
        set_number(self.cells["lstsq_w"], number_text(info.least_squares[0]))
        set_number(self.cells["lstsq_b"], number_text(info.least_squares[1]))
        set_number(self.cells["learned_w"], number_text(info.initial[0]))
        set_number(self.cells["learned_b"], number_text(info.initial[1]))
        self.note.setText(info.note)
        self.note.setVisible(bool(info.note))
        self.tutorial.clear()
        self.tutorial.hide()

    def add_tutorial_lines(self, lines: list[str]) -> None:
        if lines:
            self.tutorial.add_lines(lines)
            self.tutorial.show()

    def show_record(self, record: StepRecord, final: bool) -> None:
        self.record, self.final = record, final
        set_number(self.cells["learned_w"], number_text(record.w))
        set_number(self.cells["learned_b"], number_text(record.b))
        self._show_texts()
