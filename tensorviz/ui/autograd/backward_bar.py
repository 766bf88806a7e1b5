"""The row of backward controls: run, step back and forth, run to the end, zero grads."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QPushButton, QSizePolicy, QWidget

from tensorviz.core.autograd.backward_steps import StepThrough
from tensorviz.ui.widgets.retranslating import Retranslating


class BackwardBar(Retranslating, QWidget):
    """Buttons only; the panel connects them and tells the bar where the stepping stands."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._state = (False, None, 0, True)  # as last shown: redrawn in another language
        self.backward_button = QPushButton()
        self.back_button = QPushButton()
        self.step_button = QPushButton()
        self.end_button = QPushButton()
        self.zero_button = QPushButton()
        self.ones_gradient = QCheckBox("gradient=ones")  # the argument, as written in code
        self.step_label = QLabel()
        self.step_label.setObjectName("mutedLabel")
        self.step_label.setWordWrap(True)  # two lines at a big zoom rather than clipped
        self.step_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        for widget in (
            self.backward_button,
            self.back_button,
            self.step_button,
            self.end_button,
            self.zero_button,
            self.ones_gradient,
        ):
            row.addWidget(widget)
        row.addWidget(self.step_label, 1)
        self.retranslate()

    def retranslate(self) -> None:
        self.backward_button.setText(self.tr("Backward"))
        self.back_button.setText(self.tr("◀ Step"))
        self.back_button.setToolTip(self.tr("Previous node (Shift+F10)"))
        self.step_button.setText(self.tr("Step ▶"))
        self.step_button.setToolTip(self.tr("Next node torch visits (F10)"))
        self.back_button.setShortcut("Shift+F10")  # after setText, which clears a shortcut
        self.step_button.setShortcut("F10")
        self.end_button.setText(self.tr("To end"))
        self.zero_button.setText(self.tr("Zero grad"))
        self.zero_button.setToolTip(
            self.tr("Set every leaf's .grad to zero, as optimizer.zero_grad() does")
        )
        self.ones_gradient.setToolTip(
            self.tr(
                "backward(gradient=torch.ones_like(root)): needed when the root is not a scalar"
            )
        )
        self.show_state(*self._state)

    def show_state(
        self, has_graph: bool, stepper: StepThrough | None, passes: int, can_backward=True
    ) -> None:
        self._state = (has_graph, stepper, passes, can_backward)
        self.backward_button.setEnabled(has_graph and can_backward)
        if can_backward or not has_graph:
            tip = self.tr(
                "Run root.backward() with hooks on every node; then step through what torch did"
            )
        else:
            tip = self.tr(
                "This graph was freed by a backward without retain_graph: torch cannot walk it "
                "again. Step through the pass that ran, or run the forward again."
            )
        self.backward_button.setToolTip(tip)
        self.zero_button.setEnabled(has_graph)
        stepping = stepper is not None
        self.back_button.setEnabled(stepping and stepper.position > 0)
        self.step_button.setEnabled(stepping and stepper.position < stepper.total)
        self.end_button.setEnabled(stepping and stepper.position < stepper.total)
        if not stepping:
            self.step_label.setText(self.tr("backward not run yet") if has_graph else "")
            return
        current = stepper.current()
        where = f" · {current.op}" if current else ""
        text = self.tr("pass %1 · step %2/%3").replace("%1", str(passes))
        text = text.replace("%2", str(stepper.position)).replace("%3", str(stepper.total))
        self.step_label.setText(text + where)
