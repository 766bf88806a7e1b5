"""Save workspace tensors (one, or a selection as a dict) to .pt or .safetensors, atomically.

When safetensors refuses (shared or non-contiguous tensors) the dialog says why and offers the fix:
save contiguous copies instead.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from tensorviz.core.files.file_errors import TensorFileError
from tensorviz.core.files.formats import (
    made_safetensors_ready,
    save_tensors,
)
from tensorviz.core.tensors.workspace import Workspace
from tensorviz.ui.files.placeholders import filled
from tensorviz.ui.widgets.retranslating import Retranslating

FORMATS = (
    (QT_TRANSLATE_NOOP("SaveTensorsDialog", "PyTorch torch.save (.pt)"), ".pt"),
    (QT_TRANSLATE_NOOP("SaveTensorsDialog", "safetensors (.safetensors)"), ".safetensors"),
)


class SaveTensorsDialog(Retranslating, QDialog):
    saved = Signal(str)  # path

    def __init__(
        self, workspace: Workspace, checked: list[str] | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.names = QListWidget()
        for name in workspace.names():
            item = QListWidgetItem(name)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            on = checked is None or name in checked
            item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
            self.names.addItem(item)
        self.format = QComboBox()
        self.format.setProperty("translated_items", True)
        for _label, suffix in FORMATS:
            self.format.addItem("", suffix)
        self.format.currentIndexChanged.connect(self._on_format_changed)
        self.path = QLineEdit(str(Path.home() / "tensors.pt"))
        self.browse_button = QPushButton()
        self.browse_button.clicked.connect(self._on_browse_clicked)
        path_row = QHBoxLayout()
        path_row.addWidget(self.path, 1)
        path_row.addWidget(self.browse_button)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setObjectName("errorTitle")
        self.message.hide()
        self.fix_button = QPushButton()
        self.fix_button.clicked.connect(self.save_fixed)
        self.fix_button.hide()
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)

        self.format_label, self.file_label, self.heading = QLabel(), QLabel(), QLabel()
        form = QFormLayout()
        form.addRow(self.format_label, self.format)
        form.addRow(self.file_label, path_row)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.names, 1)
        layout.addLayout(form)
        layout.addWidget(self.message)
        layout.addWidget(self.fix_button)
        layout.addWidget(buttons)
        self.resize(460, 420)
        self.retranslate()

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Save workspace tensors"))
        for index, (label, _suffix) in enumerate(FORMATS):
            self.format.setItemText(index, self.tr(label))
        self.browse_button.setText(self.tr("Browse…"))
        self.fix_button.setText(self.tr("Save contiguous copies instead"))
        self.fix_button.setToolTip(
            filled(self.tr("%1 — sharing and strides are lost"), "{name: t.clone().contiguous()}")
        )
        self.format_label.setText(self.tr("Format"))
        self.file_label.setText(self.tr("File"))
        self.heading.setText(self.tr("Tensors to save (several are saved as one dict):"))

    def checked_names(self) -> list[str]:
        items = (self.names.item(i) for i in range(self.names.count()))
        return [it.text() for it in items if it.checkState() == Qt.CheckState.Checked]

    def set_format(self, suffix: str) -> None:
        self.format.setCurrentIndex([s for _, s in FORMATS].index(suffix))

    def _on_format_changed(self) -> None:
        suffix = self.format.currentData()
        path = Path(self.path.text() or "tensors")
        self.path.setText(str(path.with_suffix(suffix)))
        self._show_message("")

    def _on_browse_clicked(self) -> None:
        path, _filter = QFileDialog.getSaveFileName(
            self, self.tr("Save tensors"), self.path.text(), f"*{self.format.currentData()}"
        )
        if path:
            self.path.setText(path)

    def _tensors(self) -> dict:
        return {name: self.workspace.tensor(name) for name in self.checked_names()}

    def save(self) -> bool:
        tensors = self._tensors()
        if not tensors:
            self._show_message(self.tr("Tick at least one tensor to save."))
            return False
        return self._write(tensors)

    def save_fixed(self) -> bool:
        return self._write(made_safetensors_ready(self._tensors()))

    def _write(self, tensors: dict) -> bool:
        path = self.path.text().strip()
        try:
            save_tensors(tensors, path)
        except TensorFileError as error:
            self._show_message(str(error), offer_fix=True)
            return False
        except OSError as error:
            why = error.strerror or str(error)
            self._show_message(filled(self.tr("Could not write %1: %2."), path, why))
            return False
        self.saved.emit(path)
        self.accept()
        return True

    def _show_message(self, text: str, offer_fix: bool = False) -> None:
        self.message.setText(text)
        self.message.setVisible(bool(text))
        self.fix_button.setVisible(bool(text) and offer_fix)
