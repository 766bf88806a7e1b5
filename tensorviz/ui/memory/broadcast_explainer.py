"""The broadcasting explainer: shapes typed or taken from workspace tensors, explained step by
step by core (right-align, pad with 1s, a verdict per dim) and checked against torch."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from tensorviz.core.memory.broadcasting import (
    EXAMPLES,
    BroadcastExplanation,
    ShapeSyntaxError,
    explain_broadcast,
    format_shape,
    parse_shape,
)
from tensorviz.core.tensors.workspace import Workspace, WorkspaceEvent
from tensorviz.ui.widgets.scrolling import scrolling

VERDICT_STYLE = {
    "equal": ("#e7f5ee", "#1b7f4b", "equal"),
    "stretched": ("#fff4e5", "#b25e09", "stretched"),
    "incompatible": ("#fde8e8", "#b42318", "incompatible"),
}
PICK_PROMPT = "shape of…"


class BroadcastExplainer(QWidget):
    def __init__(self, workspace: Workspace, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.explanation: BroadcastExplanation | None = None
        self.shape_edits: list[QLineEdit] = []
        self.pickers: list[QComboBox] = []
        self.rows = QGridLayout()
        self.rows.setColumnStretch(3, 1)
        self.add_button = QPushButton("+ another shape")
        self.add_button.clicked.connect(lambda: self._add_shape_row(""))
        examples = QGridLayout()
        examples.addWidget(QLabel("Examples:"), 0, 0)
        self.example_buttons: dict[str, QPushButton] = {}
        for position, (title, shapes) in enumerate(EXAMPLES.items()):
            button = QPushButton(title)
            button.clicked.connect(lambda _=False, s=shapes: self.set_shapes(s))
            self.example_buttons[title] = button
            examples.addWidget(button, position // 2, 1 + position % 2)
        examples.setColumnStretch(3, 1)
        self.result = QLabel()
        self.result.setObjectName("broadcastResult")
        self.result.setTextFormat(Qt.TextFormat.RichText)
        self.result.setWordWrap(True)
        self.result.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        scroll = scrolling(self.result)
        title = QLabel("Broadcasting, step by step")
        title.setObjectName("sectionTitle")
        hint = QLabel(
            "Type shapes like (3, 1, 5) or take them from workspace tensors. torch aligns them on "
            "the right, pads the shorter ones with 1s on the left, and each dim must be equal or "
            "contain a 1 — the 1 is stretched (stride 0, no copy)."
        )
        hint.setObjectName("hint")
        hint.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(title)
        layout.addWidget(hint)
        layout.addLayout(examples)
        layout.addLayout(self.rows)
        layout.addWidget(self.add_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(scroll, 1)
        self._unsubscribe = workspace.subscribe(self._on_workspace_changed)
        self._stale = True
        self.set_shapes(EXAMPLES["(3, 1, 5) with (2, 1)"])

    # --- shapes ----------------------------------------------------------------------------------

    def set_shapes(self, shapes) -> None:
        texts = [format_shape(s) for s in shapes]
        while len(self.shape_edits) < len(texts):
            self._add_shape_row("")
        while len(self.shape_edits) > max(len(texts), 2):
            self._remove_last_row()
        for edit, text in zip(self.shape_edits, texts + [""] * len(self.shape_edits), strict=False):
            edit.blockSignals(True)
            edit.setText(text)
            edit.blockSignals(False)
        self._on_shapes_changed()

    def _add_shape_row(self, text: str) -> None:
        row = len(self.shape_edits)
        edit = QLineEdit(text)
        edit.setPlaceholderText("e.g. (3, 1, 5)")
        edit.setMinimumWidth(220)
        edit.setMaximumWidth(360)
        edit.textChanged.connect(self._on_shapes_changed)
        picker = QComboBox()
        picker.setToolTip("Take the shape of a workspace tensor")
        picker.activated.connect(lambda _=0, r=row: self._on_picker_changed(r))
        self._fill_picker(picker)
        self.rows.addWidget(QLabel(f"shape {chr(ord('a') + row)}"), row, 0)
        self.rows.addWidget(edit, row, 1)
        self.rows.addWidget(picker, row, 2)
        self.shape_edits.append(edit)
        self.pickers.append(picker)
        self._on_shapes_changed()

    def _remove_last_row(self) -> None:
        row = len(self.shape_edits) - 1
        for column in range(3):
            item = self.rows.itemAtPosition(row, column)
            if item is not None and item.widget() is not None:
                item.widget().hide()
                item.widget().deleteLater()
                self.rows.removeItem(item)
        self.shape_edits.pop()
        self.pickers.pop()

    def _fill_picker(self, picker: QComboBox) -> None:
        picker.clear()
        picker.addItem(PICK_PROMPT)
        for name in self.workspace.names():
            picker.addItem(f"{name}  {format_shape(self.workspace.tensor(name).shape)}", name)

    def _on_picker_changed(self, row: int) -> None:
        name = self.pickers[row].currentData()
        if name is not None and name in self.workspace:
            self.shape_edits[row].setText(format_shape(self.workspace.tensor(name).shape))
        self.pickers[row].setCurrentIndex(0)

    def _on_workspace_changed(self, event: WorkspaceEvent) -> None:
        for picker in self.pickers:
            self._fill_picker(picker)

    def close_subscription(self) -> None:
        self._unsubscribe()

    # --- explanation -----------------------------------------------------------------------------

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._stale:
            self._on_shapes_changed()

    def _on_shapes_changed(self, _text: str = "") -> None:
        # Hidden (e.g. at start-up, behind another tab): explain when first shown, since torch's
        # first broadcast_shapes call imports sympy (about a second).
        self._stale = not self.isVisible()
        if self._stale:
            return
        shapes, problems = [], []
        for edit in self.shape_edits:
            if not edit.text().strip():
                continue
            try:
                shapes.append(parse_shape(edit.text()))
            except ShapeSyntaxError as error:
                problems.append(str(error))
        if problems or len(shapes) < 2:
            self.explanation = None
            message = problems[0] if problems else "Enter at least two shapes."
            self.result.setText(f"<p style='color:#6b7280'>{escape(message)}</p>")
            return
        self.explanation = explain_broadcast(shapes)
        self.result.setText(explanation_html(self.explanation))


def _verdict_cell(style: str, background: str, colour: str, word: str) -> str:
    return f"<td style='{style}; background:{background}; color:{colour}'>{word}</td>"


def explanation_html(explained: BroadcastExplanation) -> str:
    ndim = len(explained.padded[0]) if explained.padded else 0
    cell = "padding:4px 10px; text-align:center; font-family:monospace; font-size:14px"
    head = "".join(f"<th style='{cell}; color:#6b7280'>dim {d}</th>" for d in range(ndim))
    body = []
    for position, (shape, padded) in enumerate(
        zip(explained.shapes, explained.padded, strict=True)
    ):
        pad = ndim - len(shape)
        cells = "".join(
            f"<td style='{cell}; color:#9ca3af'>1</td>"
            if d < pad
            else f"<td style='{cell}'>{size}</td>"
            for d, size in enumerate(padded)
        )
        label = f"{chr(ord('a') + position)} {format_shape(shape)}"
        body.append(f"<tr><td style='padding:4px 10px'><b>{escape(label)}</b></td>{cells}</tr>")
    verdicts = "".join(_verdict_cell(cell, *VERDICT_STYLE[v.kind]) for v in explained.verdicts)
    result = "".join(
        f"<td style='{cell}'><b>{'✗' if v.size is None else v.size}</b></td>"
        for v in explained.verdicts
    )
    table = (
        "<table cellspacing='2' style='margin-top:6px'>"
        f"<tr><td></td>{head}</tr>{''.join(body)}"
        f"<tr><td style='padding:4px 10px'>verdict</td>{verdicts}</tr>"
        f"<tr><td style='padding:4px 10px'><b>result</b></td>{result}</tr></table>"
    )
    steps = [
        "<b>1.</b> Align the shapes on the right.",
        "<b>2.</b> Pad the shorter ones with 1s on the left (grey).",
        "<b>3.</b> "
        + "<br>&nbsp;&nbsp;&nbsp;&nbsp;".join(escape(v.text()) for v in explained.verdicts),
    ]
    if explained.result is not None:
        agree = "agrees" if explained.torch_result == explained.result else "DISAGREES"
        steps.append(f"<b>4.</b> Result: <b>{escape(format_shape(explained.result))}</b>")
        check = (
            f"torch.broadcast_shapes {agree}: {escape(format_shape(explained.torch_result or ()))}"
        )
    else:
        failing = explained.failing
        steps.append(
            f"<b>4.</b> <span style='color:#b42318'>dim {failing.dim} fails — torch names it "
            "too:</span>"
        )
        check = (
            "<span style='font-family:monospace; color:#b42318'>"
            f"{escape(explained.torch_message)}</span>"
        )
    operands = " + ".join(f"torch.zeros{format_shape(s)}" for s in explained.shapes)
    outcome = (
        f"has shape {format_shape(explained.result)}" if explained.result is not None else "raises"
    )
    check += f"<br><span style='font-family:monospace'>{escape(operands)}</span> {outcome}"
    summary = f"<p style='font-size:15px'><b>{escape(explained.summary())}</b></p>"
    return summary + table + "<p>" + "<br>".join(steps) + "</p><p>" + check + "</p>"
