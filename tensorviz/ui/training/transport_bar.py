"""Play / Pause, Step epoch, Step phase, Reset, the speed control, the progress readout, the loss
plot options and the Export menu. Emits gestures; the panel decides what they do."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QSizePolicy,
    QSlider,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from tensorviz.ui.training.training_worker import FULL_SPEED, SPEEDS

EXPORTS = (
    ("csv", "Loss history as CSV…"),
    ("png", "Plots as PNG…"),
    ("pt", "Parameters as .pt…"),
)


class TransportBar(QWidget):
    export_requested = Signal(str)  # one of the kinds of `exports`: csv | png | pt | …
    loss_graph_requested = Signal()

    def __init__(self, parent: QWidget | None = None, exports=EXPORTS) -> None:
        """exports: the Export menu's (kind, label) entries."""
        super().__init__(parent)
        self.play_button = QPushButton("▶  Play")
        self.play_button.setToolTip("Play / pause (Space)")
        width = max(
            self.play_button.fontMetrics().horizontalAdvance(t) for t in ("▶  Play", "❚❚  Pause")
        )
        self.play_button.setMinimumWidth(width + 28)
        self.epoch_button = QPushButton("Step epoch")
        self.epoch_button.setToolTip("Run one whole epoch (→)")
        self.phase_button = QPushButton("Step phase")
        self.phase_button.setToolTip(
            "Run the next phase: forward, loss, backward, update, zero grad (N)"
        )
        self.reset_button = QPushButton("Reset")
        self.reset_button.setToolTip("Start again from the initial w, b (R)")
        self.speed = QSlider(Qt.Orientation.Horizontal)
        self.speed.setRange(0, FULL_SPEED)
        self.speed.setValue(FULL_SPEED)
        self.speed.setPageStep(1)
        self.speed.setMinimumWidth(60)
        self.speed.setMaximumWidth(150)
        self.speed.setToolTip("Speed: from slow motion (phase by phase) to full speed")
        self.speed_label = QLabel(SPEEDS[FULL_SPEED][0])
        self.speed_label.setObjectName("hint")
        self.speed_label.setFixedWidth(
            max(self.speed_label.fontMetrics().horizontalAdvance(label) for label, *_ in SPEEDS) + 8
        )
        self.progress = QLabel("")
        self.progress.setObjectName("sectionTitle")
        self.progress.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.progress.setMinimumWidth(
            self.progress.fontMetrics().horizontalAdvance("epoch 1000 / 1000") + 8
        )
        self.log_scale = QCheckBox("Log y")
        self.log_scale.setToolTip("the loss on a logarithmic axis")
        self.smoothing = QCheckBox("EMA")
        self.smoothing.setToolTip(
            "smooth the loss with an exponential moving average (the raw curve stays visible)"
        )
        self.export_button = QToolButton()
        self.export_button.setText("Export")
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.export_button)
        for kind, label in exports:
            menu.addAction(label, lambda k=kind: self.export_requested.emit(k))
        self.export_button.setMenu(menu)
        self.speed.valueChanged.connect(self._on_speed_changed)

        self.graph_button = QPushButton("Loss graph")
        self.graph_button.setToolTip(
            "Open the autograd graph of the loss at the current w, b in the Autograd graph area"
        )
        self.graph_button.clicked.connect(self.loss_graph_requested)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        self._lines = [QHBoxLayout() for _ in range(3)]
        for line in self._lines:
            line.setContentsMargins(0, 0, 0, 0)
            layout.addLayout(line)
        self.compact: bool | None = None
        self._arrange(compact=True)
        compact_width = layout.minimumSize().width()
        self._arrange(compact=False)
        # Wide only where the progress keeps room for "epoch 500 / 500 · loss 1.2345 · … · paused".
        self._wide_width = (
            layout.minimumSize().width()
            + self.progress.fontMetrics().horizontalAdvance(
                "epoch 500 / 500 · loss 3.3816 · 0.26 s · finished"
            )
            - self.progress.minimumWidth()
        )
        self.setMinimumWidth(compact_width)  # below the wide width, resizeEvent goes compact

    def _arrange(self, compact: bool) -> None:
        """Wide: the buttons, then the progress beside the speed and the plot options. Compact
        (a narrow window): the progress gets a row of its own, so it is never cut."""
        if compact == self.compact:
            return
        self.compact = compact
        for line in self._lines:
            while line.count():
                line.takeAt(0)  # the widgets stay where they are; only layout items go
        buttons = [self.play_button, self.epoch_button, self.phase_button, self.reset_button]
        options = [self.speed, self.speed_label, self.log_scale, self.smoothing]
        extras = [self.graph_button, self.export_button]
        if compact:
            rows = [[*buttons, None], [self.progress], [*options, None, *extras]]
        else:
            rows = [[*buttons, None, *extras], [self.progress, *options], []]
        self.speed_label.setVisible(not compact)  # the slider's tooltip names the speed
        for line, row in zip(self._lines, rows, strict=True):
            for item in row:
                if item is None:
                    line.addStretch(1)
                else:
                    line.addWidget(item, 1 if item is self.progress else 0)

    def resizeEvent(self, event) -> None:  # noqa: N802 — Qt override
        super().resizeEvent(event)
        self._arrange(compact=event.size().width() < self._wide_width)

    def show_state(self, running: bool, idle: bool, can_reset: bool) -> None:
        self.play_button.setText("❚❚  Pause" if running else "▶  Play")
        self.play_button.setEnabled(idle or running)
        self.epoch_button.setEnabled(idle)
        self.phase_button.setEnabled(idle)
        self.reset_button.setEnabled(can_reset)

    def _on_speed_changed(self, level: int) -> None:
        self.speed_label.setText(SPEEDS[level][0])
        self.speed.setToolTip(f"Speed: {SPEEDS[level][0]} (from slow motion to full speed)")
