"""The Files area with files open, switched to Chinese and back while it is shown: its buttons,
tabs, headers, rows, notes and details change language in place; nothing of ours stays English
(the walker of test_every_text_translated, run on a populated area, not only an empty one)."""

import os
import sys
from pathlib import Path

import pytest
import torch
from PySide6.QtCore import QCoreApplication, QEvent, Qt

sys.path.insert(0, str(Path(__file__).parents[1] / "window"))
from test_every_text_translated import leftover_english, visible_texts  # noqa: E402

# torch.load's note about the pickled Payload when the test writes it
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


class Payload:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def open_files(window, qtbot, tmp_path):
    base = torch.arange(12.0).reshape(3, 4)
    shared = str(tmp_path / "shared.pt")
    torch.save({"model": {"a.weight": base, "b.weight": base.t()}, "step": 7}, shared)
    hostile = str(tmp_path / "hostile.pt")
    torch.save({"w": torch.ones(2), "payload": Payload(tmp_path / "ran")}, hostile)
    window.open_paths([shared, hostile])
    files = window.panel("files")
    qtbot.waitUntil(lambda: len(files.inspections) == 2 and not files.is_busy(), timeout=30_000)
    assert not (tmp_path / "ran").exists()
    return files, shared, hostile


def ours(files):
    """(where, text) of the Files area's own widgets: the error panel (window unit) and the
    value view (workbench unit) are walked under their own areas' keys. Rows of details rebuilt
    since are hidden and deleted later: delete them now, as the event loop would."""
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    texts = visible_texts(files)
    for other in (files.error_panel, files.value_view):
        for found in visible_texts(other):
            texts.remove(found)
    return texts


def row_texts(model):
    texts = []
    parents = [model.index(0, 0)]
    while parents:
        parent = parents.pop()
        texts.append(str(model.data(parent) or ""))
        for row in range(model.rowCount(parent)):
            for column in range(model.columnCount(parent)):
                texts.append(str(model.data(model.index(row, column, parent)) or ""))
            parents.append(model.index(row, 0, parent))
    return texts


def test_switching_language_rewords_the_open_files_area(window, qtbot, tmp_path):
    window.show_area("files")
    files, shared, hostile = open_files(window, qtbot, tmp_path)
    files.show_file(shared)
    files.select_entry("['model']['b.weight']")
    english_details = files.details.text()
    assert "storage_offset" in english_details and "stride" in english_details
    header = files.model.headerData(0, Qt.Orientation.Horizontal)
    assert (header, files.statistics_button.text()) == ("Name", "Statistics")

    window.language_menu.choices["zh_CN"].trigger()
    try:
        qtbot.waitUntil(lambda: files.statistics_button.text() == "统计")  # LanguageChange
        qtbot.waitUntil(lambda: not files.is_busy(), timeout=30_000)  # the files read again
        assert files.current_path == shared and files.tabs.currentIndex() == 0
        assert files.model.headerData(0, Qt.Orientation.Horizontal) == "名称"
        assert files.tabs.tabText(0) == "详情"
        details = files.details.text()
        assert details != english_details and "步幅 (stride)" in details
        assert f"{tuple(torch.arange(12.0).reshape(3, 4).t().stride())}" in details  # torch's
        assert "['model']['b.weight']" in details  # the key as the file wrote it
        problems = [(w, t, words) for w, t in ours(files) if (words := leftover_english(t))]
        files.show_file(hostile)
        problems += [(w, t, words) for w, t in ours(files) if (words := leftover_english(t))]
        from_the_file = {"payload", repr(f"touch {tmp_path / 'ran'}")}  # a key, a saved string
        rows = [t for t in row_texts(files.model) if leftover_english(t) and t not in from_the_file]
        call = f"会调用 {os.system.__module__}.system('touch "
        assert any(t.startswith(call) for t in row_texts(files.model))
    finally:
        window.language_menu.choices["en"].trigger()
    assert problems == [] and rows == []
    qtbot.waitUntil(lambda: files.statistics_button.text() == "Statistics")
    assert files.model.headerData(0, Qt.Orientation.Horizontal) == "Name"
    qtbot.waitUntil(lambda: not files.is_busy(), timeout=30_000)
    assert files.current_path == hostile and files.model.data(files.model.index(0, 0)) == "(file)"


def test_a_file_gone_since_it_was_opened_stays_shown_through_a_switch(window, qtbot, tmp_path):
    window.show_area("files")
    path = tmp_path / "gone.pt"
    torch.save({"w": torch.ones(3)}, path)
    window.open_paths([str(path)])
    files = window.panel("files")
    qtbot.waitUntil(lambda: str(path) in files.inspections and not files.is_busy(), timeout=30_000)
    path.unlink()  # deleted after opening: reading it again in Chinese fails
    window.language_menu.choices["zh_CN"].trigger()
    try:
        qtbot.waitUntil(lambda: files.statistics_button.text() == "统计")
        qtbot.waitUntil(lambda: not files.is_busy(), timeout=30_000)
        assert files.inspections[str(path)].error is None  # what was read is kept
        assert files.model.inspection is not None and not files.error_panel.isVisible()
    finally:
        window.language_menu.choices["en"].trigger()
