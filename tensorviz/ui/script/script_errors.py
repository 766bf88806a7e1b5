"""Where a failed run is explained: the error in one line with a "Go to line N" button, and, for
torch's errors, the same explanation panel the Workbench shows (torch says / Why / Fix).

The exception's own line (`RuntimeError: …`) is Python's or torch's text, shown as it is; the
words around it follow the language, and are written again when it changes."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QScrollArea, QVBoxLayout

from tensorviz.core.script.run import ScriptFailure
from tensorviz.core.script.source import ScriptSyntaxError
from tensorviz.ui.widgets.error_panel import ErrorPanel
from tensorviz.ui.widgets.retranslating import Retranslating

MAX_HEADLINE = 160


class ScriptErrorBox(Retranslating, QFrame):
    line_requested = Signal(int)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("scriptError")
        self.line = 0
        self._shown: ScriptFailure | ScriptSyntaxError | None = None
        self.headline = QLabel()
        self.headline.setObjectName("errorTitle")
        self.headline.setWordWrap(True)
        self.headline.setProperty("verbatim", True)  # mostly Python's own exception line
        self.go_button = QPushButton()
        self.go_button.clicked.connect(lambda: self.line_requested.emit(self.line))
        self.explanation = ErrorPanel()
        # a long explanation in a short window (a projector's zoom) scrolls instead of clipping
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll.setWidget(self.explanation)
        self.scroll.hide()
        self.explanation.installEventFilter(self)  # its ✕ hides it: the scroll area goes too
        go = QHBoxLayout()
        go.addWidget(self.go_button)
        go.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 8)
        layout.addWidget(self.headline)
        layout.addLayout(go)
        layout.addWidget(self.scroll, 1)
        self.hide()
        self.retranslate()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        shown, hidden = QEvent.Type.ShowToParent, QEvent.Type.HideToParent
        if watched is self.explanation and event.type() in (shown, hidden):
            self.scroll.setVisible(event.type() == shown)
        return super().eventFilter(watched, event)

    def retranslate(self) -> None:
        self.go_button.setToolTip(self.tr("Put the cursor on the line that failed"))
        self.go_button.setText(self.tr("Go to line %1").replace("%1", str(self.line)))
        self.explanation.footer = self.tr(
            "The workspace's own tensors are as they were before the run; what the run made "
            "before the error is in the Captured list."
        )
        if self._shown is not None:
            self.headline.setText(self._headline_text())
            if self.explanation.explained is not None:  # its footer, in the new language
                self.explanation.show_error(self.explanation.explained)

    def _headline_text(self) -> str:
        shown = self._shown
        if isinstance(shown, ScriptSyntaxError):  # Python's message stays as Python wrote it
            return (
                self.tr("Line %1: SyntaxError: %2 — nothing ran")
                .replace("%1", str(shown.line))
                .replace("%2", shown.message)
            )
        text = shown.traceback.strip()
        last = text.splitlines()[-1] if text else ""
        if shown.torch_error:  # the explanation below quotes torch's message in full
            last = last.split(":", 1)[0]
        last = last if len(last) < MAX_HEADLINE else last[: MAX_HEADLINE - 3] + "…"
        if not shown.line:
            return last
        return self.tr("Line %1: %2").replace("%1", str(shown.line)).replace("%2", last)

    def _show(self, shown: ScriptFailure | ScriptSyntaxError, line: int) -> None:
        self._shown, self.line = shown, line
        self.headline.setText(self._headline_text())
        self.go_button.setText(self.tr("Go to line %1").replace("%1", str(line)))
        self.go_button.setVisible(line > 0)
        self.show()

    def show_failure(self, failure: ScriptFailure) -> None:
        self._show(failure, failure.line)
        if failure.torch_error:
            self.explanation.show_error(failure.explained)
        else:
            self.explanation.clear()

    def show_syntax_error(self, error: ScriptSyntaxError) -> None:
        self._show(error, error.line)
        self.explanation.clear()

    def clear(self) -> None:
        self._shown = None
        self.explanation.clear()
        self.hide()
