"""The Files area's list of opened files: each one's name and what it is (opening…, its format,
tensors and size, the calls it holds, or that it cannot be opened), as tall as its rows (at most
four). The words are made from each file's state, so a change of language or zoom redoes them."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QWidget

from tensorviz.core.files.inspection import FileInspection
from tensorviz.core.files.text import format_bytes
from tensorviz.ui.files.placeholders import filled
from tensorviz.ui.widgets.retranslating import Retranslating

PathRole = Qt.ItemDataRole.UserRole
MOST_ROWS_SHOWN = 4


def file_item_text(path: str, inspection: FileInspection | None) -> str:
    """'model.pt — torch.save (zip format), 4 tensors, 1.2 MB' (None: still opening)."""
    translate, name = QCoreApplication.translate, Path(path).name
    if inspection is None:
        return filled(translate("FileList", "%1 — opening…"), name)
    if inspection.error:
        return filled(translate("FileList", "⚠ %1 — cannot open"), name)
    tensors, calls = len(inspection.entries), len(inspection.calls)
    if calls:
        text = translate("FileList", "⚠ %1 — %2, %n tensors, %3 — %4 call(s) listed, never made",
                         "", tensors)  # fmt: skip
    else:
        text = translate("FileList", "%1 — %2, %n tensors, %3", "", tensors)
    size = format_bytes(inspection.root.total_bytes)
    return filled(text, name, inspection.format_label, size, calls)


class FileList(Retranslating, QListWidget):
    """Items carry their path (PathRole); `inspections` is the Files panel's (path → result)."""

    def __init__(self, inspections: dict[str, FileInspection], parent: QWidget | None = None):
        super().__init__(parent)
        self.inspections = inspections
        self.hide()  # shown once a file is open
        self.retranslate()

    def retranslate(self) -> None:
        for row in range(self.count()):
            item = self.item(row)
            path = item.data(PathRole)
            item.setText(file_item_text(path, self.inspections.get(path)))

    def item_of(self, path: str) -> QListWidgetItem | None:
        for row in range(self.count()):
            if self.item(row).data(PathRole) == path:
                return self.item(row)
        return None

    def paths(self) -> list[str]:
        return [self.item(row).data(PathRole) for row in range(self.count())]

    def show_opening(self, path: str) -> None:
        item = self.item_of(path)
        if item is None:
            item = QListWidgetItem()
            item.setData(PathRole, path)
            item.setToolTip(path)
            self.addItem(item)
        item.setText(file_item_text(path, None))
        self.fit_height()
        self.show()

    def show_opened(self, path: str) -> QListWidgetItem:
        item = self.item_of(path)
        item.setText(file_item_text(path, self.inspections.get(path)))
        return item

    def remove(self, path: str) -> None:
        self.takeItem(self.row(self.item_of(path)))
        self.fit_height()

    def fit_height(self) -> None:
        """As tall as its rows, at most four (the font, and so the rows, follow the zoom)."""
        rows = min(max(self.count(), 1), MOST_ROWS_SHOWN)
        frame = 2 * self.frameWidth()
        self.setFixedHeight(rows * max(self.sizeHintForRow(0), self.fontMetrics().height()) +
                            frame + 4)  # fmt: skip
