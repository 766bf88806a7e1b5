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
from tensorviz.ui.files.placeholders import filled
from tensorviz.ui.widgets.retranslating import Retranslating

PATTERNS = "*.pt *.pth *.bin *.ckpt *.safetensors *.npy *.npz"


class CompareDialog(Retranslating, QDialog):
    chosen = Signal(str, str)  # path A, path B

    def __init__(self, open_paths: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMinimumWidth(560)
        self.combos: list[QComboBox] = []
        self.browse_buttons: list[QPushButton] = []
        grid = QGridLayout()
        for row, title in enumerate("AB"):
            combo = QComboBox()
            combo.setEditable(True)
            combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
            for path in open_paths:
                combo.addItem(Path(path).name, path)
                combo.setItemData(combo.count() - 1, path, Qt.ItemDataRole.ToolTipRole)
            combo.setCurrentIndex(min(row, len(open_paths) - 1) if open_paths else -1)
            browse = QPushButton()
            browse.clicked.connect(lambda _=False, c=combo: self._browse(c))
            grid.addWidget(QLabel(f"<b>{title}</b>"), row, 0)
            grid.addWidget(combo, row, 1)
            grid.addWidget(browse, row, 2)
            self.combos.append(combo)
            self.browse_buttons.append(browse)
        grid.setColumnStretch(1, 1)
        self.swap_button = QPushButton()
        self.swap_button.clicked.connect(self.swap)
        grid.addWidget(self.swap_button, 2, 1, alignment=Qt.AlignmentFlag.AlignLeft)
        self.problem = QLabel()
        self.problem.setObjectName("problemText")
        self.problem.setWordWrap(True)
        buttons = QDialogButtonBox()
        self.compare_button = buttons.addButton("", QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        QShortcut(QKeySequence("Ctrl+Return"), self, activated=self.accept)
        self.question = QLabel()
        layout = QVBoxLayout(self)
        layout.addWidget(self.question)
        layout.addLayout(grid)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)
        self.retranslate()

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Compare two checkpoints"))
        self.combos[0].setToolTip(self.tr("the reference: changes are B against A"))
        self.combos[1].setToolTip(self.tr("the checkpoint compared with A"))
        for browse in self.browse_buttons:
            browse.setText(self.tr("Browse…"))
        self.swap_button.setText(self.tr("Swap A and B"))
        self.compare_button.setText(self.tr("Compare"))
        self.question.setText(self.tr("Which two checkpoints? B is compared against A."))

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
        patterns = filled(self.tr("Checkpoints (%1);;All files (*)"), PATTERNS)
        path, _filter = QFileDialog.getOpenFileName(
            self, self.tr("Choose a checkpoint"), start, patterns
        )
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
