"""The line above the Files area's tree: how to open a file while none is shown; then the shown
file's format and notes (core's sentences, in the language in force when it was read: Reload
reads them again), or the path of a file that cannot be opened."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QLabel, QWidget

from tensorviz.core.files.inspection import FileInspection
from tensorviz.ui.widgets.retranslating import Retranslating


class FileNotes(Retranslating, QLabel):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("hint")
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.inspection: FileInspection | None = None
        self.retranslate()

    def retranslate(self) -> None:
        self.show_inspection(self.inspection)

    def show_inspection(self, inspection: FileInspection | None) -> None:
        self.inspection = inspection
        if inspection is None:
            self.setText(self._hint())
        elif inspection.error:
            self.setText(inspection.path)
        else:
            notes = [*inspection.notes]
            if shared := len(inspection.shared_groups()):
                notes.append(QCoreApplication.translate(
                    "FileNotes", "%n storage(s) shared between entries (highlighted).", "",
                    shared))  # fmt: skip
            label = inspection.format_label
            self.setText(" · ".join([label, " ".join(notes)] if notes else [label]))

    def _hint(self) -> str:
        return self.tr(
            "Open a .pt / .pth / .bin / .ckpt, .safetensors, .npy or .npz file, a TorchScript "
            "archive, an *.index.json or a checkpoint folder with File → Open (Ctrl+O), File → "
            "Open Folder (Ctrl+Shift+O), Recent files, drag and drop, or the command line. "
            "Nothing in a file is ever run: objects show their recorded state and calls a plain "
            "torch.load would make are listed in red, never made."
        )
