"""Where a failed run is explained: the error in one line with a "Go to line N" button, and, for
torch's errors, the same explanation panel the Workbench shows (torch says / Why / Fix)."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout

from tensorviz.core.script.run import ScriptFailure
from tensorviz.core.script.source import ScriptSyntaxError
from tensorviz.ui.widgets.error_panel import ErrorPanel


class ScriptErrorBox(QFrame):
    line_requested = Signal(int)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("scriptError")
        self.line = 0
        self.headline = QLabel()
        self.headline.setObjectName("errorTitle")
        self.headline.setWordWrap(True)
        self.go_button = QPushButton()
        self.go_button.setToolTip("Put the cursor on the line that failed")
        self.go_button.clicked.connect(lambda: self.line_requested.emit(self.line))
        self.explanation = ErrorPanel(
            footer="The workspace's own tensors are as they were before the run; what the run "
            "made before the error is in the Captured list."
        )
        go = QHBoxLayout()
        go.addWidget(self.go_button)
        go.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 8)
        layout.addWidget(self.headline)
        layout.addLayout(go)
        layout.addWidget(self.explanation)
        self.hide()

    def _show(self, headline: str, line: int) -> None:
        self.line = line
        self.headline.setText(headline)
        self.go_button.setText(f"Go to line {line}")
        self.go_button.setVisible(line > 0)
        self.show()

    def show_failure(self, failure: ScriptFailure) -> None:
        last = failure.traceback.strip().splitlines()[-1] if failure.traceback.strip() else ""
        if failure.torch_error:  # the explanation below quotes torch's message in full
            last = last.split(":", 1)[0]
        where = f"Line {failure.line}: " if failure.line else ""
        self._show(where + (last if len(last) < 160 else last[:157] + "…"), failure.line)
        if failure.torch_error:
            self.explanation.show_error(failure.explained)
        else:
            self.explanation.clear()

    def show_syntax_error(self, error: ScriptSyntaxError) -> None:
        self._show(f"Line {error.line}: SyntaxError: {error.message} — nothing ran", error.line)
        self.explanation.clear()

    def clear(self) -> None:
        self.explanation.clear()
        self.hide()
