"""The identity of the selected tensor: the code that made it, view or copy, who shares its
storage, every attribute torch reports, traps worth knowing, and its NumPy twin if any.

torch's attribute names stay code in every language, each explained in a tooltip; the rest is
said again in the language in force on a switch, the verdict badge takes the theme's colours,
and the rows go to one column when the card is narrow for the zoomed text."""

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

from tensorviz.core.tensors.form_words import in_language, provenance_label
from tensorviz.core.tensors.identity import (
    Verdict,
    field_explanation,
    field_label,
    identify,
)
from tensorviz.core.tensors.workbench_actions import numpy_shares_memory
from tensorviz.core.tensors.workspace import WorkspaceEntry
from tensorviz.core.tensors.workspace_entries import Origin
from tensorviz.ui.widgets.appearance_following import on_appearance_changed
from tensorviz.ui.widgets.layout_clearing import clear_layout
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.theme import colour, scaled
from tensorviz.ui.workbench.text_arguments import arg

ONE_COLUMN_BELOW = 460  # px at 100 %: the identity rows in one column instead of two
GRID_SPACING = 14  # px at 100 %, between a row's value and the next column's name
VERDICT_ROLES = {"view": "verdict_view", "copy": "verdict_copy", "in-place": "verdict_in_place"}


def _label(text: str = "", object_name: str = "") -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
    if object_name:
        label.setObjectName(object_name)
    return label


class IdentityCard(Retranslating, QWidget):
    tensor_link_activated = Signal(str)  # a workspace name clicked in the card
    numpy_write_requested = Signal(str, str, str)  # name, index, value

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.name = _label(object_name="identityName")
        self.verdict = _label(object_name="verdictBadge")
        self.verdict.setWordWrap(False)  # a wrapping label is laid out narrow; the card scrolls
        self.code = _label(object_name="codeLine")
        self.code.setProperty("verbatim", True)  # the code that made the tensor
        self.origin = _label()
        self.sharing = _label()
        for link in (self.origin, self.sharing):
            link.linkActivated.connect(self.tensor_link_activated)
        self.grid = QGridLayout()
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
        self._shown: tuple = (None,)  # show_entry's arguments, to say it all again
        on_appearance_changed(self._on_appearance_changed)
        self._on_appearance_changed()
        self.show_entry(None)
        self.retranslate()

    def retranslate(self) -> None:
        self.numpy_index.setToolTip(self.tr("index into the NumPy array, e.g. 0, 0 or 1"))
        self.numpy_write.setText(self.tr("Write through NumPy"))
        self.numpy_write.setToolTip(
            self.tr("arr[index] = value — then see whether the tensor changed too")
        )
        self.show_entry(*self._shown)

    def _on_appearance_changed(self) -> None:
        """The badge in the theme's colours; the grid's spacing and columns at the zoom."""
        self.grid.setHorizontalSpacing(scaled(GRID_SPACING))
        self.show_entry(*self._shown)  # rich text takes the new theme's link colour when set

    def _build_numpy_box(self) -> QFrame:
        box = QFrame()
        box.setObjectName("numpyBox")
        self.numpy_info = _label()
        self.numpy_index = QLineEdit("0, 0")
        self.numpy_value = QLineEdit("99")
        self.numpy_write = QPushButton()
        self.numpy_write.clicked.connect(self._on_numpy_write_clicked)
        row = QHBoxLayout()
        row.addWidget(QLabel("arr["))  # code, the same in every language
        row.addWidget(self.numpy_index)
        row.addWidget(QLabel("] ="))
        row.addWidget(self.numpy_value)
        row.addWidget(self.numpy_write)
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
        self._shown = (entry, verdict, sharing, code, origins)
        if entry is None:
            self.name.setText(self.tr("No tensor selected"))
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
        lines = escape(statement).replace("\n", "<br>")  # rich text: a newline reads as a space
        self.code.setText(f"<code>{lines}</code>")
        self.code.show()
        self._show_verdict(verdict)
        self.origin.setText(self._origin(entry.provenance, origins))
        self.origin.show()
        others = [n for n in sharing if n != entry.name]
        self.sharing.setText(
            arg(self.tr("shares storage with %1"), self._links(others))
            if others
            else self.tr("owns its storage alone")
        )
        self.sharing.show()
        self._fill_grid(identify(entry.tensor).rows())
        notes = (escape(in_language(n), quote=False) for n in entry.notes)
        self.notes.setText("<br><br>".join(notes))
        self.notes.setVisible(bool(entry.notes))
        self._show_numpy(entry)

    def refresh_values(self) -> None:
        """Read the attributes again (a backward elsewhere filled .grad; nothing else moved)."""
        if self.entry is not None:
            self._fill_grid(identify(self.entry.tensor).rows())

    def _origin(self, provenance, origins=None) -> str:
        if provenance.op == "script":  # "from script, line 6 (model[0].weight)"
            line, path = provenance.params.get("line"), provenance.params.get("path", "")
            text = arg(self.tr("from <b>script</b>, line %1"), line) if line else self.tr(
                "from <b>script</b>"
            )  # fmt: skip
            if path and path not in provenance.code:
                text += f" ({escape(path)})"  # code: where in the script's objects
            if failed := provenance.params.get("failed_line"):
                text += arg(self.tr(" — captured before the error on line %1"), failed)
            return text
        if provenance.op == "your code":  # tensorviz.show / breakpoint / the error hook
            params = provenance.params
            where = escape(f"{params.get('file', '')}".replace("\\", "/").rsplit("/", 1)[-1])
            if params.get("dotted"):
                where += f" ({escape(params['dotted'])})"
            if params.get("line"):
                return arg(
                    self.tr("from <b>your code</b>: %1, line %2 — the very object"),
                    where,
                    params["line"],
                )
            return arg(self.tr("from <b>your code</b>: %1 — the very object"), where)
        if origins is None:
            origins = [Origin(n, n) for n in provenance.inputs]
        parts = []
        for origin in origins:
            was = escape(origin.name_then)
            if origin.name_now is None:  # the tensor it was made from is no longer there
                since = (
                    self.tr("%1 <i>(an earlier %1, replaced since)</i>")
                    if origin.replaced
                    else self.tr("%1 <i>(an earlier %1, deleted since)</i>")
                )
                parts.append(arg(since, was))
            else:
                parts.append(self._links([origin.name_now]))
        op = escape(provenance_label(provenance.op))
        if parts:
            return arg(self.tr("made by <b>%1</b> from %2"), op, ", ".join(parts))
        return arg(self.tr("made by <b>%1</b>"), op)

    def _show_verdict(self, verdict: Verdict | None) -> None:
        if verdict is None:
            self.verdict.hide()
            return
        background = colour(VERDICT_ROLES.get(verdict.kind, "verdict_other")).name()
        self.verdict.setText(escape(verdict.text))  # said in the language in force
        self.verdict.setStyleSheet(
            f"background:{background}; color:{colour('verdict_text').name()}; "
            f"padding:{scaled(3)}px {scaled(8)}px; border-radius:{scaled(4)}px;"
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
        return self.width() < scaled(ONE_COLUMN_BELOW)

    def _fill_grid(self, rows: list[tuple[str, str]]) -> None:
        clear_layout(self.grid)
        self.value_labels = {}
        self._grid_rows, self._grid_one_column = rows, self._one_column()
        half = len(rows) if self._grid_one_column else (len(rows) + 1) // 2
        for i, (field, value) in enumerate(rows):
            column = 0 if i < half else 2
            key = QLabel(field_label(field))
            key.setObjectName("identityKey")
            key.setProperty("verbatim", field_label(field) == field)  # torch's name: code
            key.setToolTip(field_explanation(field))
            text = QLabel(value)
            text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            text.setToolTip(field_explanation(field))
            self.value_labels[field] = text
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
        layout = arg(
            self.tr(
                "<b>NumPy array arr</b> %1 %2 — byte strides (%3), tensor element strides (%4)."
            ),
            array.dtype,
            list(array.shape),
            byte_strides,
            element_strides,
        )
        sharing = (
            self.tr(
                "<b>Shares memory</b> with the tensor (torch.from_numpy): a write on either side "
                "shows in the other."
            )
            if shared
            else self.tr(
                "<b>Separate memory</b> (torch.tensor(arr) copied): writes do not cross over."
            )
        )
        self.numpy_info.setText(f"{layout}<br>{sharing}")
        self.numpy_box.show()

    def _on_numpy_write_clicked(self) -> None:
        if self.entry is not None:
            self.numpy_write_requested.emit(
                self.entry.name, self.numpy_index.text(), self.numpy_value.text()
            )
