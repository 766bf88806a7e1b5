"""The selected entry of a file, in words: where it is, what it holds, how it shares memory.

One row per fact: our word for it on the left (translated), the fact on the right. Facts that
come from the file or are code (keys, values, class names, the loading line) are shown as they
are and marked verbatim; our own sentences are translated like every other text."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QGridLayout, QLabel, QVBoxLayout, QWidget

from tensorviz.core.files.inspection import FileInspection, Node
from tensorviz.core.files.text import load_code, node_summary, sharing_text
from tensorviz.ui.files.placeholders import filled
from tensorviz.ui.widgets.layout_clearing import clear_layout
from tensorviz.ui.widgets.retranslating import Retranslating

translate = QCoreApplication.translate  # lupdate reads translate("Context", "text") calls

Row = tuple[str, str, bool]  # our word for the fact, the fact, whether it is shown verbatim


class FileDetails(Retranslating, QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._shown: tuple = (None, None, None)
        self.grid = QGridLayout()
        self.grid.setColumnStretch(1, 1)
        self.grid.setHorizontalSpacing(12)
        self.message = QLabel()
        self.message.setObjectName("hint")
        self.code = QLabel()  # a text file of the archive (TorchScript code), as it is
        self.code.setProperty("verbatim", True)
        self.code.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.addWidget(self.message)
        layout.addLayout(self.grid)
        layout.addWidget(self.code)
        layout.addStretch(1)
        self.retranslate()

    def retranslate(self) -> None:
        self.show_node(*self._shown)

    def restyle(self) -> None:
        """The facts' fixed-width font at the zoom in force."""
        self.show_node(*self._shown)

    def text(self) -> str:
        """What is shown, as plain text: one 'word  fact' line per row."""
        node, inspection, statistics = self._shown
        if inspection is None or node is None:
            return self.message.text()
        rows = detail_rows(node, inspection, statistics)
        code = f"\n{node.value}" if node.kind == "text" and node.value else ""
        return "\n".join(f"{word}  {fact}" for word, fact, _verbatim in rows) + code

    def show_node(
        self, node: Node | None, inspection: FileInspection | None, statistics: str | None
    ) -> None:
        self._shown = (node, inspection, statistics)
        clear_layout(self.grid)
        self.code.clear()
        self.code.hide()
        if inspection is None or node is None:
            self.message.setText(
                ""
                if inspection is None
                else translate("FileDetails", "Select an entry of the file.")
            )
            self.message.setVisible(inspection is not None)
            return
        self.message.hide()
        fixed = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        fixed.setPointSizeF(self.font().pointSizeF())
        for row, (word, fact, verbatim) in enumerate(detail_rows(node, inspection, statistics)):
            key = QLabel(word)
            key.setObjectName("hint")
            key.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
            value = QLabel(fact)
            value.setTextFormat(Qt.TextFormat.PlainText)
            value.setFont(fixed)
            value.setWordWrap(True)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            value.setProperty("verbatim", verbatim)
            self.grid.addWidget(key, row, 0)
            self.grid.addWidget(value, row, 1)
        if node.kind == "text":
            self.code.setText(f"<pre>{escape(str(node.value or ''))}</pre>")
            self.code.show()


def detail_rows(node: Node, inspection: FileInspection, statistics: str | None) -> list[Row]:
    entry = node.key_text() or translate("FileDetails", "(the whole file)")
    rows: list[Row] = [(translate("FileDetails", "entry"), entry, bool(node.key_text())),
                       (translate("FileDetails", "holds"), node_summary(node), True)]  # fmt: skip
    if node.tensor is not None:
        rows += _tensor_rows(node, inspection, statistics)
    else:
        rows += _other_rows(node)
    if node.source:
        rows.append((translate("FileDetails", "file"), node.source, True))
    return rows


def _tensor_rows(node: Node, inspection: FileInspection, statistics: str | None) -> list[Row]:
    info = node.tensor
    rows: list[Row] = [(translate("FileDetails", "device"), info.device, True)]
    if info.storage_id is None:
        rows.append((translate("FileDetails", "layout"), info.layout, True))
        if info.nnz is not None:
            rows.append(("nnz", f"{info.nnz:,}", True))
        return rows + [
            (translate("FileDetails", "bytes"), f"{info.nbytes:,}", True),
            (translate("FileDetails", "note"), info.problem or "", False),
            (translate("FileDetails", "load it"), load_code(inspection, node.access), True),
        ]
    group = inspection.storages[info.storage_id]
    count = len(group.members)
    if count == 1:
        storage = translate("FileDetails", "#%1: %2 bytes, read by one entry")
    else:
        storage = QCoreApplication.translate("FileDetails", "#%1: %2 bytes, read by %n entries",
                                             "", count)  # fmt: skip
    rows += [
        (translate("FileDetails", "stride"), str(info.stride), True),
        (translate("FileDetails", "storage_offset"), str(info.storage_offset), True),
        (translate("FileDetails", "bytes"), f"{info.nbytes:,}", True),
        (
            translate("FileDetails", "storage"),
            filled(storage, info.storage_id, f"{group.nbytes:,}"),
            False,
        ),
        # the keys it shares with come from the file
        (
            translate("FileDetails", "sharing"),
            sharing_text(node, inspection) or translate("FileDetails", "its own storage"),
            True,
        ),
    ]
    if info.problem:
        rows.append((translate("FileDetails", "note"), info.problem, False))
    if statistics:
        rows.append((translate("FileDetails", "statistics"), statistics, False))
    else:
        rows.append(
            (
                translate("FileDetails", "statistics"),
                translate("FileDetails", "not computed yet (Statistics, Ctrl+I)"),
                False,
            )
        )
    return rows + [(translate("FileDetails", "load it"), load_code(inspection, node.access), True)]


def _other_rows(node: Node) -> list[Row]:
    """What a row that is not a tensor is: its class, the call it stands for, its value."""
    rows: list[Row] = []
    if node.kind == "call":
        rows += [
            (translate("FileDetails", "callable"), node.class_name, True),
            (
                translate("FileDetails", "would run"),
                node.danger or translate("FileDetails", "code from the module it names"),
                False,
            ),
            (
                translate("FileDetails", "made?"),
                translate("FileDetails", "never: tensorviz records calls, it does not make them"),
                False,
            ),
        ]
    elif node.kind in ("object", "module"):
        rows.append((translate("FileDetails", "class"), node.class_name, True))
        built = translate("FileDetails", "no: the state the file recorded, shown as data")
        if node.kind == "module":
            built = translate(
                "FileDetails",
                "no: its submodules, parameters and buffers as the file recorded them",
            )
        rows.append((translate("FileDetails", "built?"), built, False))
    elif node.kind == "global":
        rows.append(
            (
                translate("FileDetails", "names"),
                filled(translate("FileDetails", "%1 (never imported)"), node.class_name),
                False,
            )
        )
    elif node.kind == "value":
        kind = type(node.value).__name__ if node.value is not None else "None"
        value = _long_text(node.value, node.value_text)
        rows += [(translate("FileDetails", "type"), kind, True),
                 (translate("FileDetails", "value"), value, True)]  # fmt: skip
    elif node.kind == "missing":
        rows.append(
            (translate("FileDetails", "why"), node.value_text, True)
        )  # may quote a shard's name
    if node.kind not in ("value", "global", "missing", "text", "call"):
        on_disk = filled(
            translate("FileDetails", "%1 (each storage counted once)"), f"{node.total_bytes:,}"
        )
        rows.append((translate("FileDetails", "bytes on disk"), on_disk, False))
    return rows


def _long_text(value, short: str) -> str:
    if isinstance(value, str):
        if len(value) <= 2000:
            return value
        return value[:2000] + filled(translate("FileDetails", "… (%1 long)"), f"{len(value):,}")
    return short
