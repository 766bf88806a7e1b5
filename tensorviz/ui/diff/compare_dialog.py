"""File → Compare…: pick checkpoint A (the reference) and B, from the files already open or any
file on disk. A path that cannot be opened is said in one line, and the dialog stays open."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QGridLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from tensorviz.core.files.open_requests import path_problem

OPEN_FILTER = "Checkpoints (*.pt *.pth *.bin *.ckpt *.safetensors *.npy *.npz);;All files (*)"


class CompareDialog(QDialog):
    chosen = Signal(str, str)  # path A, path B

    def __init__(self, open_paths: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Compare two checkpoints")
        self.setMinimumWidth(560)
        self.combos: list[QComboBox] = []
        grid = QGridLayout()
        for row, (title, tip) in enumerate((("A", "the reference: changes are B against A"),
                                            ("B", "the checkpoint compared with A"))):  # fmt: skip
            combo = QComboBox()
            combo.setEditable(True)
            combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
            for path in open_paths:
                combo.addItem(Path(path).name, path)
                combo.setItemData(combo.count() - 1, path, Qt.ItemDataRole.ToolTipRole)
            combo.setCurrentIndex(min(row, len(open_paths) - 1) if open_paths else -1)
            combo.setToolTip(tip)
            browse = QPushButton("Browse…")
            browse.clicked.connect(lambda _=False, c=combo: self._browse(c))
            grid.addWidget(QLabel(f"<b>{title}</b>"), row, 0)
            grid.addWidget(combo, row, 1)
            grid.addWidget(browse, row, 2)
            self.combos.append(combo)
        grid.setColumnStretch(1, 1)
        self.swap_button = QPushButton("Swap A and B")
        self.swap_button.clicked.connect(self.swap)
        grid.addWidget(self.swap_button, 2, 1, alignment=Qt.AlignmentFlag.AlignLeft)
        self.problem = QLabel()
        self.problem.setStyleSheet("color: #b91c1c")
        self.problem.setWordWrap(True)
        buttons = QDialogButtonBox()
        self.compare_button = buttons.addButton("Compare", QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        QShortcut(QKeySequence("Ctrl+Return"), self, activated=self.accept)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Which two checkpoints? B is compared against A."))
        layout.addLayout(grid)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)

    def path(self, which: int) -> str:
        combo = self.combos[which]
        index = combo.currentIndex()
        if index >= 0 and combo.itemText(index) == combo.currentText():
            return combo.itemData(index)
        return combo.currentText().strip()

    def set_paths(self, path_a: str, path_b: str) -> None:
        for combo, path in zip(self.combos, (path_a, path_b), strict=True):
            self._select(combo, path)

    def _select(self, combo: QComboBox, path: str) -> None:
        index = combo.findData(path)
        if index < 0:
            combo.addItem(Path(path).name, path)
            index = combo.count() - 1
        combo.setCurrentIndex(index)

    def swap(self) -> None:
        self.set_paths(self.path(1), self.path(0))

    def _browse(self, combo: QComboBox) -> None:
        start = str(Path(self.path(0) or self.path(1) or Path.home()).parent)
        path, _ = QFileDialog.getOpenFileName(self, "Choose a checkpoint", start, OPEN_FILTER)
        if path:
            self._select(combo, path)

    def accept(self) -> None:
        paths = [self.path(0), self.path(1)]
        for which, path in zip("AB", paths, strict=True):
            if problem := path_problem(path):
                self.problem.setText(f"{which}: {problem.message()}")
                return
        self.chosen.emit(*paths)
        super().accept()
