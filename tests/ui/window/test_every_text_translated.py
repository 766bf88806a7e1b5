"""Under zh_CN every text the window shows is Chinese, except what must stay as it is: code,
identifiers, units, numbers, product names and torch's own messages (shown verbatim).

The walk opens every area and the dialogs, collects what a user reads (labels, buttons, tabs,
menus, actions, tooltips, placeholders, combo items, list and table headers) and flags a text in
which a Latin word is left that none of those rules explains. A new English string in the UI
fails here until it is wrapped in self.tr() and translated (make translations)."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QTableView,
    QTabWidget,
    QTreeView,
    QWidget,
)

from tensorviz.ui.window.areas import AREAS

# Words that are the same in a Chinese text: names of products, formats, devices, torch's API.
KEPT_WORDS = {
    "tensorviz", "torch", "pytorch", "numpy", "python", "qt", "pyside", "pyqtgraph", "networkx",
    "cuda", "cpu", "gpu", "mps", "meta", "dtype", "png", "svg", "dot", "csv", "json", "pt", "pth",
    "npy", "npz", "safetensors", "torchscript", "onnx", "graphviz", "mse", "bce", "sgd", "adam",
    "relu", "tanh", "sigmoid", "gelu", "softmax", "xor", "lr", "epoch", "loss", "nan", "inf",
    "ctrl", "shift", "alt", "esc", "enter", "tab", "del", "f2", "utf", "id", "ok", "api", "url",
    "lightning", "transformers", "hugging", "face", "dcp", "llama", "gpt", "bert", "vit", "t5",
    "resnet", "lstm", "rnn", "cnn", "mlp", "fp8", "bf16", "true", "false", "none", "grad",
    "sin",  # the sine as torch.sin names it: the playground's features "sin x", "sin y"
    "english",  # View → Language names each language in its own words
}  # fmt: skip
DTYPE = re.compile(r"^(u?int|float|bfloat|complex|bool|qu?int|float8_\w+)\d*$")
CODE_PIECE = re.compile(r"`[^`]*`|\S*[_.()\[\]=@/\\:<>{}*+#|]\S*|\S*\d\S*")
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
PARENTHESISED_AFTER_CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]\s*[（(][^)）]*[)）]")
TAGS = re.compile(r"<[^>]+>|&\w+;")


def leftover_english(text: str) -> list[str]:
    """The Latin words of `text` no rule allows (empty: the text is fine in Chinese)."""
    text = TAGS.sub(" ", text).replace("&", "")
    text = PARENTHESISED_AFTER_CJK.sub(" ", text)  # 视图 (view): the English a learner meets
    text = CODE_PIECE.sub(" ", text)
    words = LATIN_WORD.findall(text)
    return [w for w in words if w.lower() not in KEPT_WORDS and not DTYPE.match(w.lower())]


def _verbatim(widget: QWidget) -> bool:
    """torch's own message, user code or data: shown as it is, never translated."""
    while widget is not None:
        if widget.property("verbatim") or isinstance(widget, QPlainTextEdit):
            return True
        widget = widget.parentWidget()
    return False


def visible_texts(root: QWidget) -> list[tuple[str, str]]:
    """(where, text) for everything a user reads in `root` and its children."""
    found: list[tuple[str, str]] = []

    def add(widget: QWidget, what: str, text: str) -> None:
        if text and text.strip() and not _verbatim(widget):
            found.append((f"{type(widget).__name__}#{widget.objectName()} {what}", text))

    for widget in [root, *root.findChildren(QWidget)]:
        add(widget, "toolTip", widget.toolTip())
        add(widget, "statusTip", widget.statusTip())
        if isinstance(widget, QLabel):
            add(widget, "text", widget.text())
        elif isinstance(widget, QAbstractButton):
            add(widget, "text", widget.text())
        elif isinstance(widget, QGroupBox):
            add(widget, "title", widget.title())
        elif isinstance(widget, QLineEdit):
            add(widget, "placeholder", widget.placeholderText())
        elif isinstance(widget, QComboBox) and widget.property("translated_items"):
            for i in range(widget.count()):
                add(widget, f"item {i}", widget.itemText(i))
        elif isinstance(widget, QTabWidget):
            for i in range(widget.count()):
                add(widget, f"tab {i}", widget.tabText(i))
        elif isinstance(widget, QMenu):
            add(widget, "title", widget.title())
        elif isinstance(widget, QTableView | QTreeView) and widget.model() is not None:
            header = (
                widget.horizontalHeader() if isinstance(widget, QTableView) else widget.header()
            )
            if not header.isHidden():
                for column in range(header.count()):
                    text = widget.model().headerData(column, Qt.Orientation.Horizontal)
                    add(widget, f"header {column}", str(text or ""))
        for action in widget.actions():
            add(widget, "action", action.text())
            add(widget, "action tip", action.toolTip() if action.toolTip() != action.text() else "")
    return found


@pytest.fixture
def chinese_window(window, qtbot):
    window.language_menu.choices["zh_CN"].trigger()
    yield window
    window.language_menu.choices["en"].trigger()


def test_the_rule_flags_english_and_spares_code():
    assert leftover_english("Apply operation") == ["Apply", "operation"]
    assert leftover_english("应用操作") == []
    assert leftover_english("视图 (view) 共享存储") == []
    assert leftover_english("x.view(-1) 失败：float32 张量 [2, 3]") == []
    assert leftover_english("在 CUDA 上运行 `loss.backward()`") == []


# Every area of the window and its menus: a new area is checked the day it is added.
CHECKED = (*(area.key for area in AREAS), "menus")


def _root_of(window, key: str, qtbot):
    if key == "menus":
        return window.menuBar()
    window.show_area(key)
    panel = window.panel(key)
    qtbot.waitUntil(panel.isVisible)
    return panel


@pytest.mark.parametrize("key", CHECKED)
def test_every_text_of_the_area_is_chinese_under_zh_cn(chinese_window, qtbot, key):
    problems = [
        f"{where}: {text!r} ({', '.join(words)})"
        for where, text in visible_texts(_root_of(chinese_window, key, qtbot))
        if (words := leftover_english(text))
    ]
    assert problems == []
