"""The row of backward controls: run, step back and forth, run to the end, zero grads."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QPushButton, QSizePolicy, QWidget

from tensorviz.core.autograd.backward_steps import StepThrough

BACKWARD_TIP = "Run root.backward() with hooks on every node; then step through what torch did"
FREED_BUTTON_TIP = (
    "This graph was freed by a backward without retain_graph: torch cannot walk it again. "
    "Step through the pass that ran, or run the forward again."
)


class BackwardBar(QWidget):
    """Buttons only; the panel connects them and tells the bar where the stepping stands."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.backward_button = QPushButton("Backward")
        self.backward_button.setToolTip(BACKWARD_TIP)
        self.back_button = QPushButton("◀ Step")
        self.back_button.setToolTip("Previous node (Shift+F10)")
        self.back_button.setShortcut("Shift+F10")
        self.step_button = QPushButton("Step ▶")
        self.step_button.setToolTip("Next node torch visits (F10)")
        self.step_button.setShortcut("F10")
        self.end_button = QPushButton("To end")
        self.zero_button = QPushButton("Zero grad")
        self.zero_button.setToolTip("Set every leaf's .grad to zero, as optimizer.zero_grad() does")
        self.ones_gradient = QCheckBox("gradient=ones")
        self.ones_gradient.setToolTip(
            "backward(gradient=torch.ones_like(root)): needed when the root is not a scalar"
        )
        self.step_label = QLabel()
        self.step_label.setObjectName("mutedLabel")
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

    def show_state(
        self, has_graph: bool, stepper: StepThrough | None, passes: int, can_backward=True
    ) -> None:
        self.backward_button.setEnabled(has_graph and can_backward)
        self.backward_button.setToolTip(
            BACKWARD_TIP if can_backward or not has_graph else FREED_BUTTON_TIP
        )
        self.zero_button.setEnabled(has_graph)
        stepping = stepper is not None
        self.back_button.setEnabled(stepping and stepper.position > 0)
        self.step_button.setEnabled(stepping and stepper.position < stepper.total)
        self.end_button.setEnabled(stepping and stepper.position < stepper.total)
        if not stepping:
            self.step_label.setText("backward not run yet" if has_graph else "")
            return
        current = stepper.current()
        where = f" · {current.op}" if current else ""
        self.step_label.setText(f"pass {passes} · step {stepper.position}/{stepper.total}{where}")
