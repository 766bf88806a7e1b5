"""The identity of the selected tensor: the code that made it, view or copy, who shares its
storage, every attribute torch reports, traps worth knowing, and its NumPy twin if any."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from tensorviz.core.tensors.identity import Verdict, identify
from tensorviz.core.tensors.workbench_actions import numpy_shares_memory
from tensorviz.core.tensors.workspace import WorkspaceEntry
from tensorviz.core.tensors.workspace_entries import Origin
from tensorviz.ui.widgets.layout_clearing import clear_layout

ONE_COLUMN_BELOW = 460  # px: the identity rows in one column instead of two

VERDICT_COLOURS = {"view": "#2a9d8f", "copy": "#3d5a80", "in-place": "#e76f51"}


def _label(text: str = "", object_name: str = "") -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
    if object_name:
        label.setObjectName(object_name)
    return label


class IdentityCard(QWidget):
    tensor_link_activated = Signal(str)  # a workspace name clicked in the card
    numpy_write_requested = Signal(str, str, str)  # name, index, value

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.name = _label(object_name="identityName")
        self.verdict = _label(object_name="verdictBadge")
        self.verdict.setWordWrap(False)
        self.code = _label(object_name="codeLine")
        self.origin = _label()
        self.sharing = _label()
        for link in (self.origin, self.sharing):
            link.linkActivated.connect(self.tensor_link_activated)
        self.grid = QGridLayout()
        self.grid.setHorizontalSpacing(14)
        self.grid.setVerticalSpacing(2)
        self.value_labels: dict[str, QLabel] = {}
        self._grid_rows: list[tuple[str, str]] = []
        self._grid_one_column = False
        self.notes = _label(object_name="trapNote")
        self.numpy_box = self._build_numpy_box()

        header = QHBoxLayout()
        header.addWidget(self.name)
        header.addWidget(self.verdict)
        header.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(header)
        layout.addWidget(self.code)
        layout.addWidget(self.origin)
        layout.addWidget(self.sharing)
        layout.addLayout(self.grid)
        layout.addWidget(self.notes)
        layout.addWidget(self.numpy_box)
        layout.addStretch(1)
        self.show_entry(None)

    def _build_numpy_box(self) -> QFrame:
        box = QFrame()
        box.setObjectName("numpyBox")
        self.numpy_info = _label()
        self.numpy_index = QLineEdit("0, 0")
        self.numpy_index.setToolTip("index into the NumPy array, e.g. 0, 0 or 1")
        self.numpy_value = QLineEdit("99")
        write = QPushButton("Write through NumPy")
        write.setToolTip("arr[index] = value — then see whether the tensor changed too")
        write.clicked.connect(self._on_numpy_write_clicked)
        row = QHBoxLayout()
        row.addWidget(QLabel("arr["))
        row.addWidget(self.numpy_index)
        row.addWidget(QLabel("] ="))
        row.addWidget(self.numpy_value)
        row.addWidget(write)
        layout = QVBoxLayout(box)
        layout.addWidget(self.numpy_info)
        layout.addLayout(row)
        return box

    def show_entry(
        self,
        entry: WorkspaceEntry | None,
        verdict: Verdict | None = None,
        sharing: list[str] = (),
        code: str | None = None,
        origins: list[Origin] | None = None,
    ) -> None:
        """`origins`: Workspace.origins of the entry (its inputs, followed by uid)."""
        self.entry = entry
        if entry is None:
            self.name.setText("No tensor selected")
            for widget in (
                self.verdict,
                self.code,
                self.origin,
                self.sharing,
                self.notes,
                self.numpy_box,
            ):
                widget.hide()
            self._fill_grid([])
            return
        self.name.setText(entry.name)
        statement = code or entry.provenance.statement(entry.name)
        self.code.setText(f"<code>{escape(statement)}</code>")
        self.code.show()
        self._show_verdict(verdict)
        self.origin.setText(self._origin(entry.provenance, origins))
        self.origin.show()
        others = [n for n in sharing if n != entry.name]
        self.sharing.setText(
            f"shares storage with {self._links(others)}" if others else "owns its storage alone"
        )
        self.sharing.show()
        self._fill_grid(identify(entry.tensor).rows())
        self.notes.setText("<br><br>".join(escape(n, quote=False) for n in entry.notes))
        self.notes.setVisible(bool(entry.notes))
        self._show_numpy(entry)

    def refresh_values(self) -> None:
        """Read the attributes again (a backward elsewhere filled .grad; nothing else moved)."""
        if self.entry is not None:
            self._fill_grid(identify(self.entry.tensor).rows())

    def _origin(self, provenance, origins=None) -> str:
        if provenance.op == "script":  # "from script, line 6 (model[0].weight)"
            line, path = provenance.params.get("line"), provenance.params.get("path", "")
            where = f", line {line}" if line else ""
            inside = f" ({escape(path)})" if path and path not in provenance.code else ""
            failed = provenance.params.get("failed_line")
            error = f" — captured before the error on line {failed}" if failed else ""
            return f"from <b>script</b>{where}{inside}{error}"
        if provenance.op == "your code":  # tensorviz.show / breakpoint / the error hook
            params = provenance.params
            where = f"{params.get('file', '')}".replace("\\", "/").rsplit("/", 1)[-1]
            line = f", line {params['line']}" if params.get("line") else ""
            dotted = f" ({escape(params['dotted'])})" if params.get("dotted") else ""
            return f"from <b>your code</b>: {escape(where)}{line}{dotted} — the very object"
        if origins is None:
            origins = [Origin(n, n) for n in provenance.inputs]
        parts = []
        for origin in origins:
            was = escape(origin.name_then)
            if origin.name_now is None:  # the tensor it was made from is no longer there
                since = "replaced since" if origin.replaced else "deleted since"
                parts.append(f"{was} <i>(an earlier {was}, {since})</i>")
            else:
                parts.append(self._links([origin.name_now]))
        return f"made by <b>{escape(provenance.op)}</b>" + (
            f" from {', '.join(parts)}" if parts else ""
        )

    def _show_verdict(self, verdict: Verdict | None) -> None:
        if verdict is None:
            self.verdict.hide()
            return
        colour = VERDICT_COLOURS.get(verdict.kind, "#6b7280")
        self.verdict.setText(escape(verdict.text))
        self.verdict.setStyleSheet(
            f"background:{colour}; color:white; padding:3px 8px; border-radius:4px;"
        )
        self.verdict.show()

    @staticmethod
    def _links(names: list[str]) -> str:
        return ", ".join(f"<a href='{escape(n)}'>{escape(n)}</a>" for n in names)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self._one_column() != self._grid_one_column:  # narrow: one column of rows
            self._fill_grid(self._grid_rows)

    def _one_column(self) -> bool:
        return self.width() < ONE_COLUMN_BELOW

    def _fill_grid(self, rows: list[tuple[str, str]]) -> None:
        clear_layout(self.grid)
        self.value_labels = {}
        self._grid_rows, self._grid_one_column = rows, self._one_column()
        half = len(rows) if self._grid_one_column else (len(rows) + 1) // 2
        for i, (label, value) in enumerate(rows):
            column = 0 if i < half else 2
            key = QLabel(label)
            key.setObjectName("identityKey")
            text = QLabel(value)
            text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.value_labels[label] = text
            self.grid.addWidget(key, i % half, column)
            self.grid.addWidget(text, i % half, column + 1)
        self.grid.setColumnStretch(1, 1)
        self.grid.setColumnStretch(3, 1)

    def _show_numpy(self, entry: WorkspaceEntry) -> None:
        array = entry.numpy_array
        if array is None:
            self.numpy_box.hide()
            return
        shared = numpy_shares_memory(array, entry.tensor)
        byte_strides = ", ".join(map(str, array.strides))
        element_strides = ", ".join(map(str, entry.tensor.stride()))
        self.numpy_info.setText(
            f"<b>NumPy array arr</b> {array.dtype} {list(array.shape)} — byte strides "
            f"({byte_strides}), tensor element strides ({element_strides}).<br>"
            + (
                "<b>Shares memory</b> with the tensor (torch.from_numpy): a write on either side "
                "shows in the other."
                if shared
                else "<b>Separate memory</b> (torch.tensor(arr) copied): writes do not cross over."
            )
        )
        self.numpy_box.show()

    def _on_numpy_write_clicked(self) -> None:
        if self.entry is not None:
            self.numpy_write_requested.emit(
                self.entry.name, self.numpy_index.text(), self.numpy_value.text()
            )
