"""The selected entry of a file, in words: where it is, what it holds, how it shares memory."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

from tensorviz.core.files.inspection import FileInspection, Node
from tensorviz.core.files.text import load_code, node_summary, sharing_text


class FileDetails(QLabel):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setContentsMargins(8, 6, 8, 6)

    def show_node(
        self, node: Node | None, inspection: FileInspection | None, statistics: str | None
    ) -> None:
        if inspection is None or node is None:
            self.setText("" if inspection is None else "Select an entry of the file.")
            return
        rows = [("entry", node.key_text() or "(the whole file)"), ("holds", node_summary(node))]
        if node.tensor is not None and node.tensor.storage_id is None:
            info = node.tensor
            rows += [("device", info.device), ("layout", info.layout)]
            if info.nnz is not None:
                rows.append(("nnz", f"{info.nnz:,}"))
            rows += [
                ("bytes", f"{info.nbytes:,}"),
                ("note", info.problem or ""),
                ("load it", load_code(inspection, node.access)),
            ]
        elif node.tensor is not None:
            info = node.tensor
            group = inspection.storages[info.storage_id]
            count = len(group.members)
            rows += [
                ("device", info.device),
                ("stride", str(info.stride)),
                ("storage_offset", str(info.storage_offset)),
                ("bytes", f"{info.nbytes:,}"),
                (
                    "storage",
                    f"#{info.storage_id}: {group.nbytes:,} bytes, read by {count} "
                    f"entr{'y' if count == 1 else 'ies'}",
                ),
                ("sharing", sharing_text(node, inspection) or "its own storage"),
                *([("note", info.problem)] if info.problem else []),
                ("statistics", statistics or "not computed yet (Statistics, Ctrl+I)"),
                ("load it", load_code(inspection, node.access)),
            ]
        else:
            rows += _other_rows(node)
        if node.source:
            rows.append(("file", node.source))
        code = ""
        if node.kind == "text":
            code = f"<pre style='margin-top:8px'>{escape(str(node.value or ''))}</pre>"
        body = "".join(
            f"<tr><td style='color:#6b7280; padding-right:12px'>{escape(k)}</td>"
            f"<td style='font-family:monospace'>{escape(v)}</td></tr>"
            for k, v in rows
        )
        self.setText(f"<table>{body}</table>{code}")


def _other_rows(node: Node) -> list[tuple[str, str]]:
    """What a row that is not a tensor is: its class, the call it stands for, its value."""
    rows = []
    if node.kind == "call":
        rows += [
            ("callable", node.class_name),
            ("would run", node.danger or "code from the module it names"),
            ("made?", "never: tensorviz records calls, it does not make them"),
        ]
    elif node.kind in ("object", "module"):
        rows.append(("class", node.class_name))
        built = "no: the state the file recorded, shown as data"
        if node.kind == "module":
            built = "no: its submodules, parameters and buffers as the file recorded them"
        rows.append(("built?", built))
    elif node.kind == "global":
        rows.append(("names", f"{node.class_name} (never imported)"))
    elif node.kind == "value":
        kind = type(node.value).__name__ if node.value is not None else "None"
        rows += [("type", kind), ("value", _long_text(node.value, node.value_text))]
    elif node.kind == "missing":
        rows.append(("why", node.value_text))
    if node.kind not in ("value", "global", "missing", "text", "call"):
        rows.append(("bytes on disk", f"{node.total_bytes:,} (each storage counted once)"))
    return rows


def _long_text(value, short: str) -> str:
    if isinstance(value, str):
        return value if len(value) <= 2000 else value[:2000] + f"… ({len(value):,} long)"
    return short
