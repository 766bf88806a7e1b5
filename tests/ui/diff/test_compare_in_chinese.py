"""The Compare area with a comparison shown, switched to Chinese and back: headers, statuses,
filters, the verdict, the summary and a pair's notes change language in place (the notes are
core's, made again by comparing again); keys and torch's figures stay as they are."""

import sys
from pathlib import Path

import torch
from PySide6.QtCore import Qt

sys.path.insert(0, str(Path(__file__).parents[1] / "window"))
from test_every_text_translated import leftover_english, visible_texts  # noqa: E402


def compared(window, qtbot, tmp_path):
    torch.manual_seed(0)
    a = {"enc.weight": torch.randn(4, 3), "enc.bias": torch.randn(4), "old.bias": torch.ones(2)}
    b = {"enc.weight": a["enc.weight"].double() + 0.5, "enc.bias": a["enc.bias"].clone()}
    paths = [str(tmp_path / "base.pt"), str(tmp_path / "tuned.pt")]
    torch.save(a, paths[0])
    torch.save(b, paths[1])
    window.show_area("compare")
    compare = window.panel("compare")
    compare.compare_paths(*paths)
    qtbot.waitUntil(lambda: compare.comparison is not None and not compare.is_busy(),
                    timeout=30_000)  # fmt: skip
    return compare, a, b


def ours(words):
    """Words left once the files' own names (their keys' parts) are set aside."""
    return [w for w in words if w not in {"enc", "old", "weight", "bias"}]


def cells(model):
    return [str(model.data(model.index(r, c)) or "") for r in range(model.rowCount())
            for c in range(model.columnCount())]  # fmt: skip


def test_switching_language_rewords_the_comparison(window, qtbot, tmp_path):
    compare, a, b = compared(window, qtbot, tmp_path)
    compare.group_box.setChecked(False)
    first = compare.comparison
    assert compare.model.headerData(0, Qt.Orientation.Horizontal) == "Key"
    assert any("float32 → float64" in cell for cell in cells(compare.model))  # the dtype note

    window.language_menu.choices["zh_CN"].trigger()
    try:
        qtbot.waitUntil(lambda: compare.model.headerData(0, Qt.Orientation.Horizontal) == "键")
        qtbot.waitUntil(lambda: compare.comparison is not first and not compare.is_busy(),
                        timeout=30_000)  # compared again, in Chinese  # fmt: skip
        shown = cells(compare.model)
        assert "已变化" in shown and "未变化" in shown and "仅在 A 中" in shown
        assert "enc.weight" in shown and "old.bias" in shown  # keys as the files wrote them
        note = next(cell for cell in shown if "float32 → float64" in cell)
        assert "数据类型 (dtype)" in note and not leftover_english(note), note
        summary = compare.summary_label.text()
        assert "两边都有的张量 2 个：1 个已变化，1 个未变化" in summary
        changed = torch.count_nonzero(b["enc.weight"] != a["enc.weight"].double()).item()
        assert changed == a["enc.weight"].numel() and f"{changed} (100 %)" in shown  # torch's
        problems = [(w, t, words) for w, t in visible_texts(compare)
                    if (words := ours(leftover_english(t)))]  # fmt: skip
        rows = [cell for cell in shown if ours(leftover_english(cell))]
    finally:
        window.language_menu.choices["en"].trigger()
    assert problems == [] and rows == []
    qtbot.waitUntil(lambda: compare.model.headerData(0, Qt.Orientation.Horizontal) == "Key")
    qtbot.waitUntil(lambda: not compare.is_busy(), timeout=30_000)
    assert "Changed" in cells(compare.model) or "changed" in cells(compare.model)
