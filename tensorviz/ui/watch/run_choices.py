"""The Runs toolbar's lists: the run folders beside the open one, the ranks, the series."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox

from tensorviz.core.watch.run_reader import is_run_folder

SIBLINGS = 30  # run folders beside the open one, newest first (their names are dates)


def run_folders_beside(folder: Path) -> list[Path]:
    try:
        beside = [p for p in folder.parent.iterdir() if p.is_dir() and is_run_folder(p)]
    except OSError:
        beside = [folder]
    return sorted(beside, key=lambda p: p.name, reverse=True)[:SIBLINGS]


def fill_combo(combo: QComboBox, items: list[tuple[str, object]], current, tips=False) -> None:
    """Show `items` (text, data) with `current`'s chosen, without a signal; when the data are
    those shown already, only the texts are set (a language switch)."""
    if [combo.itemData(i) for i in range(combo.count())] != [data for _text, data in items]:
        combo.blockSignals(True)
        combo.clear()
        for text, data in items:
            combo.addItem(text, data)
            if tips:
                combo.setItemData(combo.count() - 1, str(data), Qt.ItemDataRole.ToolTipRole)
        combo.setCurrentIndex(max(0, combo.findData(current)))
        combo.blockSignals(False)
        return
    for index, (text, _data) in enumerate(items):
        combo.setItemText(index, text)
