"""Play / Pause, Step epoch, Step phase, Reset, the speed control, the progress readout, the loss
plot options and the Export menu. Emits gestures; the panel decides what they do."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, Signal
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
from tensorviz.ui.widgets.appearance_following import FollowsAppearanceLater
from tensorviz.ui.widgets.retranslating import Retranslating

# (kind, label): the Export menu's entries; labels are translated in the context "TransportBar".
EXPORTS = (
    ("csv", QT_TRANSLATE_NOOP("TransportBar", "Loss history as CSV…")),
    ("png", QT_TRANSLATE_NOOP("TransportBar", "Plots as PNG…")),
    ("pt", QT_TRANSLATE_NOOP("TransportBar", "Parameters as .pt…")),
)
GRAPH_BUTTON = (
    QT_TRANSLATE_NOOP("TransportBar", "Loss graph"),
    QT_TRANSLATE_NOOP(
        "TransportBar",
        "Open the autograd graph of the loss at the current w, b in the Autograd graph area",
    ),
)
RESET_TIP = QT_TRANSLATE_NOOP("TransportBar", "Start again from the initial w, b (R)")


def _translated(text: str) -> str:
    return QCoreApplication.translate("TransportBar", text)


class TransportBar(Retranslating, FollowsAppearanceLater, QWidget):
    export_requested = Signal(str)  # one of the kinds of `exports`: csv | png | pt | …
    loss_graph_requested = Signal()

    def __init__(
        self,
        parent: QWidget | None = None,
        exports=EXPORTS,
        graph_button=GRAPH_BUTTON,
        reset_tip: str = RESET_TIP,
    ) -> None:
        """exports: the Export menu's (kind, label) entries; graph_button: the graph button's
        (text, tooltip); reset_tip: the Reset button's tooltip — each untranslated, marked with
        QT_TRANSLATE_NOOP("TransportBar", ...)."""
        super().__init__(parent)
        self._exports, self._graph_texts, self._reset_tip = exports, graph_button, reset_tip
        self._running = False
        self.play_button = QPushButton()
        self.epoch_button = QPushButton()
        self.phase_button = QPushButton()
        self.reset_button = QPushButton()
        self.speed = QSlider(Qt.Orientation.Horizontal)
        self.speed.setRange(0, FULL_SPEED)
        self.speed.setValue(FULL_SPEED)
        self.speed.setPageStep(1)
        self.speed.setMinimumWidth(60)
        self.speed.setMaximumWidth(150)
        self.speed_label = QLabel()
        self.speed_label.setObjectName("hint")
        self.progress = QLabel("")
        self.progress.setObjectName("sectionTitle")
        self.progress.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.log_scale = QCheckBox()
        self.smoothing = QCheckBox()
        self.export_button = QToolButton()
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.export_button)
        self._export_actions = [
            menu.addAction("", lambda k=kind: self.export_requested.emit(k)) for kind, _ in exports
        ]
        self.export_button.setMenu(menu)
        self.speed.valueChanged.connect(self._on_speed_changed)

        self.graph_button = QPushButton()
        self.graph_button.clicked.connect(self.loss_graph_requested)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        self._lines = [QHBoxLayout() for _ in range(3)]
        for line in self._lines:
            line.setContentsMargins(0, 0, 0, 0)
            layout.addLayout(line)
        self.compact: bool | None = None
        self.retranslate()

    def retranslate(self) -> None:
        self.play_button.setToolTip(self.tr("Play / pause (Space)"))
        self.epoch_button.setText(self.tr("Step epoch"))
        self.epoch_button.setToolTip(self.tr("Run one whole epoch (→)"))
        self.phase_button.setText(self.tr("Step phase"))
        self.phase_button.setToolTip(
            self.tr("Run the next phase: forward, loss, backward, update, zero grad (N)")
        )
        self.reset_button.setText(self.tr("Reset"))
        self.reset_button.setToolTip(_translated(self._reset_tip))
        self.log_scale.setText(self.tr("Log y"))
        self.log_scale.setToolTip(self.tr("the loss on a logarithmic axis"))
        self.smoothing.setText(self.tr("Smooth (EMA)"))
        self.smoothing.setToolTip(
            self.tr(
                "smooth the loss with an exponential moving average (the raw curve stays visible)"
            )
        )
        self.export_button.setText(self.tr("Export"))
        for action, (_kind, label) in zip(self._export_actions, self._exports, strict=True):
            action.setText(_translated(label))
        self.graph_button.setText(_translated(self._graph_texts[0]))
        self.graph_button.setToolTip(_translated(self._graph_texts[1]))
        self.show_state(self._running, self.epoch_button.isEnabled(), self.reset_button.isEnabled())
        self._on_speed_changed(self.speed.value())
        self._measure()

    def restyle(self) -> None:
        if self.compact is not None:  # (built)
            self._measure()

    def _play_texts(self) -> tuple[str, str]:
        return self.tr("▶  Play"), self.tr("❚❚  Pause")

    def _speed_names(self) -> list[str]:
        return [QCoreApplication.translate("TrainingWorker", label) for label, *_rest in SPEEDS]

    def _measure(self) -> None:
        """The widths that depend on the texts and the font: again after a language or zoom
        change."""
        metrics = self.play_button.fontMetrics()
        self.play_button.setMinimumWidth(
            max(metrics.horizontalAdvance(t) for t in self._play_texts()) + 28
        )
        self.speed_label.setFixedWidth(
            max(self.speed_label.fontMetrics().horizontalAdvance(n) for n in self._speed_names())
            + 8
        )
        progress = self.progress.fontMetrics()
        self.progress.setMinimumWidth(
            progress.horizontalAdvance(
                self.tr("epoch %1 / %2").replace("%1", "1000").replace("%2", "1000")
            )
            + 8
        )
        layout = self.layout()
        self._arrange(compact=True, force=True)
        layout.invalidate()  # the cached sizes are those of the old font and texts
        compact_width = layout.minimumSize().width()
        self._arrange(compact=False, force=True)
        layout.invalidate()
        # Wide only where the progress keeps room for "epoch 500 / 500 · loss 1.2345 · … · paused".
        sample = self.tr("epoch %1 / %2").replace("%1", "500").replace("%2", "500")
        sample += (
            QCoreApplication.translate("RunPanel", " · loss %1 · %2 s · %3")
            .replace("%1", "3.3816")
            .replace("%2", "0.26")
            .replace("%3", QCoreApplication.translate("RunPanel", "finished"))
        )
        self._wide_width = (
            layout.minimumSize().width()
            + progress.horizontalAdvance(sample)
            - self.progress.minimumWidth()
        )
        self.setMinimumWidth(compact_width)  # below the wide width, resizeEvent goes compact
        self._arrange(compact=self.width() < self._wide_width)

    def _arrange(self, compact: bool, force: bool = False) -> None:
        """Wide: the buttons, then the progress beside the speed and the plot options. Compact
        (a narrow window): the progress gets a row of its own, so it is never cut."""
        if compact == self.compact and not force:
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
        self._running = running
        play, pause = self._play_texts()
        self.play_button.setText(pause if running else play)
        self.play_button.setEnabled(idle or running)
        self.epoch_button.setEnabled(idle)
        self.phase_button.setEnabled(idle)
        self.reset_button.setEnabled(can_reset)

    def _on_speed_changed(self, level: int) -> None:
        name = self._speed_names()[level]
        self.speed_label.setText(name)
        self.speed.setToolTip(
            self.tr("Speed: %1 (from slow motion to full speed)").replace("%1", name)
        )
