"""The Script area's toolbar: Run, Stop, Open…, Examples, Architecture (the models the last run
called), Clear output, the busy bar and the status line.

Every word follows View → Language at once: the status line keeps how to word itself (`say`
takes a function, asked again on a switch), the menus keep what their entries stand for."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QMenu,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QWidget,
)

from tensorviz.core.script.examples import script_examples
from tensorviz.ui.widgets.appearance_following import FollowsAppearance
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.theme import scaled


class StatusLine(QLabel):
    """One line that ends in "…" where the toolbar has no room (a long Chinese sentence at 200 %
    zoom), the whole sentence in its tooltip; `text()` stays the whole sentence."""

    def paintEvent(self, event) -> None:
        area = self.contentsRect()
        shown = self.fontMetrics().elidedText(
            self.text(), Qt.TextElideMode.ElideRight, area.width()
        )
        self.setToolTip(self.text() if shown != self.text() else "")
        painter = QPainter(self)
        self.style().drawItemText(painter, area, int(self.alignment()), self.palette(),
                                  self.isEnabled(), shown, self.foregroundRole())  # fmt: skip


class ScriptToolbar(Retranslating, FollowsAppearance, QWidget):
    example_chosen = Signal(str)  # an example's key
    architecture_chosen = Signal(object)  # a ModelCall

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("scriptToolbar")
        self._status_text: Callable[[], str] = str  # words the status line in force
        self.model_calls: list = []
        self.run_button = QPushButton()
        self.run_button.setObjectName("primaryButton")
        self.stop_button = QPushButton()
        self.open_button = QPushButton()
        self.examples_button = QToolButton()
        self.examples_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.examples_menu = QMenu(self.examples_button)
        self.example_actions = []
        for example in script_examples():
            action = self.examples_menu.addAction("")
            action.triggered.connect(lambda _=False, k=example.key: self.example_chosen.emit(k))
            self.example_actions.append((action, example))
        self.examples_button.setMenu(self.examples_menu)
        self.architecture_button = QToolButton()
        self.architecture_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.architecture_menu = QMenu(self.architecture_button)
        self.architecture_button.setMenu(self.architecture_menu)
        self.architecture_button.setEnabled(False)
        self.clear_button = QPushButton()
        self.status = StatusLine()
        self.status.setObjectName("scriptStatus")
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.busy = QProgressBar()
        self.busy.setRange(0, 0)
        self.busy.setTextVisible(False)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.run_button, self.stop_button, self.open_button, self.examples_button,
                       self.architecture_button, self.clear_button):  # fmt: skip
            layout.addWidget(widget)
        layout.addSpacing(8)
        layout.addWidget(self.busy)
        layout.addWidget(self.status, 1)
        self.restyle_if_changed()
        self.retranslate()

    def retranslate(self) -> None:
        self.run_button.setText(self.tr("▶  Run"))
        self.run_button.setToolTip(self.tr("Run the script (Ctrl+Enter)"))
        self.stop_button.setText(self.tr("■  Stop"))
        self.stop_button.setToolTip(self.tr("Stop the running script (Esc)"))
        self.open_button.setText(self.tr("Open…"))
        self.open_button.setToolTip(
            self.tr(
                "Open a .py file: it runs as python SCRIPT.py runs it (its folder first on "
                "sys.path, __file__, its path in tracebacks)"
            )
        )
        self.examples_button.setText(self.tr("Examples"))
        self.examples_button.setToolTip(self.tr("Load a short script for one topic of PyTorch"))
        for action, example in self.example_actions:
            action.setText(example.title)
            names = ", ".join(f"`{name}`" for name in example.promises)  # code: not words
            action.setToolTip(self.tr("Leaves %1 in the workspace").replace("%1", names))
        self.architecture_button.setText(self.tr("Architecture"))
        self.architecture_button.setToolTip(
            self.tr(
                "See the forward of a model the last run called, module by module, on its input"
            )
        )
        for action, call in zip(self.architecture_menu.actions(), self.model_calls, strict=True):
            action.setText(self.tr("Architecture of %1").replace("%1", call.text))
        self.clear_button.setText(self.tr("Clear output"))
        self.status.setText(self._status_text())

    def restyle(self) -> None:
        self.busy.setMaximumWidth(scaled(90))
        self.busy.setMaximumHeight(scaled(12))

    def say(self, text: Callable[[], str]) -> None:
        """Put `text()` on the status line, and again in the new language when it changes."""
        self._status_text = text
        self.status.setText(text())

    def offer_architectures(self, calls) -> None:
        """The models the last run called, one menu entry each ("Architecture of model(x)")."""
        self.model_calls = list(calls)
        self.architecture_menu.clear()
        for call in self.model_calls:
            action = self.architecture_menu.addAction(
                self.tr("Architecture of %1").replace("%1", call.text)
            )
            action.triggered.connect(lambda _=False, c=call: self.architecture_chosen.emit(c))
        self.architecture_button.setEnabled(bool(self.model_calls))
