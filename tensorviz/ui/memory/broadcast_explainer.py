"""The broadcasting explainer: shapes typed or taken from workspace tensors, explained step by
step by core (right-align, pad with 1s, a verdict per dim) and checked against torch.

The explanation is rich text whose words, colours and sizes follow the language, theme and zoom
in force: it is rendered again when any of them changes."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QCoreApplication, QEvent, Qt
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
    example_title,
    explain_broadcast,
    format_shape,
    parse_shape,
)
from tensorviz.core.tensors.workspace import Workspace, WorkspaceEvent
from tensorviz.ui.memory.layout_texts import filled, muted_style
from tensorviz.ui.memory.palette import is_appearance_change
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.scrolling import scrolling
from tensorviz.ui.widgets.theme import colour, scaled

translate = QCoreApplication.translate  # lupdate reads the context given
# A verdict's colours: (background role, text role), both themes readable (TEXT_ON_BACKGROUND).
VERDICT_ROLES = {
    "equal": ("verdict_equal", "verdict_equal_text"),
    "stretched": ("verdict_stretched", "verdict_stretched_text"),
    "incompatible": ("verdict_incompatible", "verdict_incompatible_text"),
}
FIRST_EXAMPLE = "(3, 1, 5) with (2, 1)"


class BroadcastExplainer(Retranslating, QWidget):
    def __init__(self, workspace: Workspace, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.explanation: BroadcastExplanation | None = None
        self.shape_edits: list[QLineEdit] = []
        self.pickers: list[QComboBox] = []
        self.shape_labels: list[QLabel] = []
        self.rows = QGridLayout()
        self.rows.setColumnStretch(3, 1)
        self.add_button = QPushButton()
        self.add_button.clicked.connect(lambda: self._add_shape_row(""))
        examples = QGridLayout()
        self.examples_label = QLabel()
        examples.addWidget(self.examples_label, 0, 0)
        self.example_buttons: dict[str, QPushButton] = {}  # by EXAMPLES key (English title)
        for position, (key, shapes) in enumerate(EXAMPLES.items()):
            button = QPushButton()
            button.clicked.connect(lambda _=False, s=shapes: self.set_shapes(s))
            self.example_buttons[key] = button
            examples.addWidget(button, position // 2, 1 + position % 2)
        examples.setColumnStretch(3, 1)
        self.result = _rich_label("broadcastResult")
        # torch's message in a label of its own: shown verbatim, never translated.
        self.torch_says = _rich_label("torchSays")
        self.torch_says.setProperty("verbatim", True)
        self.check = _rich_label("broadcastCheck")
        answers = QWidget()
        column = QVBoxLayout(answers)
        column.setContentsMargins(0, 0, 0, 0)
        for label in (self.result, self.torch_says, self.check):
            column.addWidget(label)
        column.addStretch(1)
        scroll = scrolling(answers, Qt.Orientation.Vertical)
        self.title = QLabel()
        self.title.setObjectName("sectionTitle")
        self.hint = QLabel()
        self.hint.setObjectName("hint")
        self.hint.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.hint)
        layout.addLayout(examples)
        layout.addLayout(self.rows)
        layout.addWidget(self.add_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(scroll, 1)
        self._unsubscribe = workspace.subscribe(self._on_workspace_changed)
        self._stale = True
        self.set_shapes(EXAMPLES[FIRST_EXAMPLE])
        self.retranslate()

    def retranslate(self) -> None:
        self.title.setText(self.tr("Broadcasting, step by step"))
        self.hint.setText(
            self.tr(
                "Type shapes like (3, 1, 5) or take them from workspace tensors. torch aligns "
                "them on the right, pads the shorter ones with 1s on the left, and each dim must "
                "be equal or contain a 1 — the 1 is stretched (stride 0, no copy)."
            )
        )
        self.examples_label.setText(self.tr("Examples:"))
        for key, button in self.example_buttons.items():
            button.setText(example_title(key))
        self.add_button.setText(self.tr("+ another shape"))
        for row, (label, edit, picker) in enumerate(
            zip(self.shape_labels, self.shape_edits, self.pickers, strict=True)
        ):
            self._name_row(row, label, edit, picker)
        self._on_shapes_changed()  # the explanation in the new words

    def changeEvent(self, event: QEvent) -> None:
        if is_appearance_change(event) and hasattr(self, "result"):
            self._size_edits()
            self._on_shapes_changed()  # its colours and sizes are in the rich text
        super().changeEvent(event)

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
        edit.textChanged.connect(self._on_shapes_changed)
        picker = QComboBox()
        picker.activated.connect(lambda _=0, r=row: self._on_picker_changed(r))
        label = QLabel()
        self._name_row(row, label, edit, picker)
        self._fill_picker(picker)
        self.rows.addWidget(label, row, 0)
        self.rows.addWidget(edit, row, 1)
        self.rows.addWidget(picker, row, 2)
        self.shape_edits.append(edit)
        self.pickers.append(picker)
        self.shape_labels.append(label)
        self._size_edits()
        self._on_shapes_changed()

    def _name_row(self, row: int, label: QLabel, edit: QLineEdit, picker: QComboBox) -> None:
        label.setText(filled(self.tr("shape %1"), chr(ord("a") + row)))
        edit.setPlaceholderText(self.tr("e.g. (3, 1, 5)"))
        picker.setToolTip(self.tr("Take the shape of a workspace tensor"))
        if picker.count():
            picker.setItemText(0, self.tr("shape of…"))

    def _size_edits(self) -> None:
        for edit in self.shape_edits:
            edit.setMinimumWidth(scaled(220))
            edit.setMaximumWidth(scaled(360))

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
        self.shape_labels.pop()

    def _fill_picker(self, picker: QComboBox) -> None:
        picker.clear()
        picker.addItem(self.tr("shape of…"))
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
            message = problems[0] if problems else self.tr("Enter at least two shapes.")
            self.result.setText(f"<p style='{muted_style()}'>{escape(message)}</p>")
            self.torch_says.setText("")
            self.torch_says.hide()
            self.check.setText("")
            return
        self.explanation = explain_broadcast(shapes)
        steps, check = explanation_html(self.explanation)
        self.result.setText(steps)
        self.torch_says.setText(torch_message_html(self.explanation))
        self.torch_says.setVisible(bool(self.explanation.torch_message))  # no gap when it agrees
        self.check.setText(check)


def _rich_label(object_name: str) -> QLabel:
    label = QLabel()
    label.setObjectName(object_name)
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setWordWrap(True)
    label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def _verdict_cell(style: str, kind: str, word: str) -> str:
    background, text = (colour(role).name() for role in VERDICT_ROLES[kind])
    return f"<td style='{style}; background:{background}; color:{text}'>{escape(word)}</td>"


def explanation_html(explained: BroadcastExplanation) -> tuple[str, str]:
    """(the steps, the check against torch) as rich text, in the language, theme and zoom in
    force; torch's own message, when it refused, goes between them (torch_message_html)."""
    ndim = len(explained.padded[0]) if explained.padded else 0
    muted, error = muted_style(), f"color:{colour('error_text').name()}"
    padding = f"padding:{scaled(4)}px {scaled(10)}px"
    cell = f"{padding}; text-align:center; font-family:monospace; font-size:{scaled(14)}px"
    dim = translate("BroadcastExplainer", "dim %1")
    words = f"{padding}; text-align:center; font-size:{scaled(14)}px"  # Chinese: no monospace
    head = "".join(f"<th style='{words}; {muted}'>{filled(dim, d)}</th>" for d in range(ndim))
    body = []
    for position, (shape, padded) in enumerate(
        zip(explained.shapes, explained.padded, strict=True)
    ):
        pad = ndim - len(shape)
        cells = "".join(
            f"<td style='{cell}; {muted}'><i>1</i></td>"
            if d < pad
            else f"<td style='{cell}'>{size}</td>"
            for d, size in enumerate(padded)
        )
        label = f"{chr(ord('a') + position)} {format_shape(shape)}"
        body.append(f"<tr><td style='{padding}'><b>{escape(label)}</b></td>{cells}</tr>")
    verdicts = "".join(_verdict_cell(cell, v.kind, v.word) for v in explained.verdicts)
    result = "".join(
        f"<td style='{cell}'><b>{'✗' if v.size is None else v.size}</b></td>"
        for v in explained.verdicts
    )
    verdict_title = translate("BroadcastExplainer", "verdict")
    result_title = translate("BroadcastExplainer", "result")
    table = (
        f"<table cellspacing='2' style='margin-top:{scaled(6)}px'>"
        f"<tr><td></td>{head}</tr>{''.join(body)}"
        f"<tr><td style='{padding}'>{escape(verdict_title)}</td>{verdicts}</tr>"
        f"<tr><td style='{padding}'><b>{escape(result_title)}</b></td>{result}</tr></table>"
    )
    steps = [
        "<b>1.</b> " + escape(translate("BroadcastExplainer", "Align the shapes on the right.")),
        "<b>2.</b> "
        + escape(
            translate(
                "BroadcastExplainer", "Pad the shorter ones with 1s on the left (grey, slanted)."
            )
        ),
        "<b>3.</b> "
        + "<br>&nbsp;&nbsp;&nbsp;&nbsp;".join(escape(v.text()) for v in explained.verdicts),
    ]
    operands = escape(" + ".join(f"torch.zeros{format_shape(s)}" for s in explained.shapes))
    code = f"<span style='font-family:monospace'>{operands}</span>"
    if explained.result is not None:
        shape = escape(format_shape(explained.result))
        steps.append(
            "<b>4.</b> " + filled(translate("BroadcastExplainer", "Result: <b>%1</b>"), shape)
        )
        torch_says = escape(format_shape(explained.torch_result or ()))
        if explained.torch_result == explained.result:
            check = filled(
                translate("BroadcastExplainer", "torch.broadcast_shapes agrees: %1"), torch_says
            )
        else:
            check = filled(
                translate("BroadcastExplainer", "torch.broadcast_shapes DISAGREES: %1"), torch_says
            )
        check += "<br>" + filled(translate("BroadcastExplainer", "%1 has shape %2"), code, shape)
    else:
        failing = filled(
            translate("BroadcastExplainer", "dim %1 fails — torch names it too:"),
            explained.failing.dim,
        )
        steps.append(f"<b>4.</b> <span style='{error}'>{failing}</span>")
        check = filled(translate("BroadcastExplainer", "%1 raises"), code)
    summary = f"<p style='font-size:{scaled(15)}px'><b>{escape(explained.summary())}</b></p>"
    return summary + table + "<p>" + "<br>".join(steps) + "</p>", check


def torch_message_html(explained: BroadcastExplanation) -> str:
    """torch's own words when it refused ("" when it did not), in the theme's error colour."""
    if not explained.torch_message:
        return ""
    style = f"font-family:monospace; color:{colour('error_text').name()}"
    return f"<span style='{style}'>{escape(explained.torch_message)}</span>"
