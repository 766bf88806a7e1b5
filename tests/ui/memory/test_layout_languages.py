"""The Memory layout area follows View → Language, Theme and Zoom while it is open: its words
switch to Chinese and back (the texts on screen, what is hovered, selected and walked included),
its pictures paint from the theme in force, and its hand-set sizes grow with the zoom. Numbers
in the texts are torch's own answers (data pointers, strides, torch's error message)."""

import importlib.util
from itertools import product
from pathlib import Path

import pytest
import torch
from PySide6.QtCore import QPoint
from PySide6.QtGui import QFontMetricsF, QImage, QPainter

from tensorviz.core.tensors.workbench_actions import apply_operation, populate_default_workspace
from tensorviz.core.tensors.workspace import Workspace
from tensorviz.ui.memory.layout_panel import LayoutPanel
from tensorviz.ui.memory.palette import member_colour, storage_colour, text_colour_on
from tensorviz.ui.widgets import theme as themes
from tensorviz.ui.window.appearance import Appearance
from tensorviz.ui.window.language import LanguageSwitcher


def _walker():
    """The untranslated-text rule of tests/ui/window (one rule for the whole app)."""
    path = Path(__file__).parents[1] / "window" / "test_every_text_translated.py"
    spec = importlib.util.spec_from_file_location("every_text_translated_rule", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def workspace():
    workspace = Workspace()
    populate_default_workspace(workspace)  # x = arange(24).reshape(2, 3, 4), x_t
    apply_operation(workspace, "index", "x", {"index": "..., :1"}, name="x_col")
    apply_operation(workspace, "expand", "x_col", {"shape": "2, 3, 4"}, name="x_e")
    return workspace


@pytest.fixture
def panel(qtbot, workspace):
    widget = LayoutPanel(workspace)
    qtbot.addWidget(widget)
    widget.resize(1200, 800)
    widget.show()
    qtbot.waitExposed(widget)
    yield widget
    widget.shutdown()


@pytest.fixture
def switcher(qapp):
    switcher = LanguageSwitcher.shared()
    yield switcher
    switcher.apply("en")


@pytest.fixture
def appearance(qapp):
    appearance = Appearance.shared()
    before = (appearance.theme_choice, appearance.zoom)
    yield appearance
    appearance.apply(*before)


def cell_of(tensor, index) -> int:
    base = tensor.untyped_storage().data_ptr()
    return (tensor[index].data_ptr() - base) // tensor.element_size()


def _stage(panel) -> int:
    """x_e shown, one element hovered, its storage cell selected, two steps walked."""
    panel.show_tensor("x_e")
    panel.hover_element((1, 2, 3))
    cell = cell_of(panel.workspace.tensor("x_e"), (1, 2, 3))
    panel.select_cell(cell)
    panel.details.walk.step()
    panel.details.walk.step()
    return cell


def test_switching_to_chinese_retranslates_the_open_area_and_back(panel, switcher, qtbot):
    tensor = panel.workspace.tensor("x_e")
    cell = _stage(panel)
    switcher.apply("zh_CN")
    qtbot.waitUntil(lambda: panel.tabs.tabText(0) == "步幅与存储")
    details = panel.details
    assert panel.tabs.tabText(1) == "广播"
    assert details.sections[0].text() == "元素 → 存储"
    assert f"读取存储格 <b>{cell}</b>" in details.formula.text()  # torch's cell, still hovered
    readers = [i for i in product(*map(range, tensor.shape)) if cell_of(tensor, i) == cell]
    assert len(readers) == tensor.shape[-1]  # stride 0 along the last dim
    assert f"被 x_e 的 <b>{len(readers)}</b> 个元素读取" in details.cell.text()
    assert details.walk_text.text().startswith("第 2 步，共 24 步")
    assert ("非连续" in panel.summary.text()) == (not tensor.is_contiguous())
    assert "非连续 (non-contiguous)" in details.layout_text.text()  # core's text, from gettext
    assert details.walk.play_button.text() == "播放"
    assert panel.grid.row_label == "第 1 维 (j)，大小 3"
    assert panel.strips.group_title(panel.strips.rows[0].group, True).startswith("x_e 的存储")

    rule = _walker()
    # The ErrorPanel is the window unit's widget (ui/widgets), checked by that unit's key.
    theirs = rule.visible_texts(details.error_panel)
    shown = [found for found in rule.visible_texts(panel) if found not in theirs]
    painted = [panel.grid.row_label, panel.grid.col_label] + [
        panel.strips.group_title(row.group, position == 0)
        for position, row in enumerate(panel.strips.rows)
    ]
    problems = [
        (where, text, words)
        for where, text in shown + [("painted", t) for t in painted]
        if (words := rule.leftover_english(text))
    ]
    assert problems == []

    switcher.apply("en")
    qtbot.waitUntil(lambda: panel.tabs.tabText(0) == "Strides && storage")
    assert details.sections[0].text() == "Element → storage"
    assert f"reads storage cell <b>{cell}</b>" in details.formula.text()
    assert "Not contiguous" in details.layout_text.text()
    assert panel.grid.row_label == "dim 1 (j), size 3"


def test_the_broadcasting_tab_explains_in_chinese_with_torchs_message_verbatim(
    panel, switcher, qtbot
):
    explainer = panel.broadcasting
    panel.tabs.setCurrentWidget(explainer)
    switcher.apply("zh_CN")
    qtbot.waitUntil(lambda: explainer.title.text() == "广播 (broadcasting)，一步一步看")
    explainer.example_buttons["fails: (2, 3) with (4, 1, 4)"].click()
    with pytest.raises(RuntimeError) as raised:
        torch.zeros(2, 3) + torch.zeros(4, 1, 4)
    assert str(raised.value) in explainer.torch_says.text()  # torch's English, as torch wrote it
    assert explainer.torch_says.property("verbatim")  # the walker leaves torch's words alone
    assert "无法广播" in explainer.result.text() and "第 2 维" in explainer.result.text()
    assert "会报错" in explainer.check.text()
    rule = _walker()
    problems = [found for found in rule.visible_texts(explainer) if rule.leftover_english(found[1])]
    assert problems == []
    assert explainer.example_buttons["silent: [3, 1] with [4]"].text() == "静默广播：[3, 1] 与 [4]"
    assert explainer.shape_labels[0].text() == "形状 a"


def _picture(widget) -> QImage:
    image = QImage(widget.size(), QImage.Format.Format_RGB32)
    painter = QPainter(image)
    widget.paint_picture(painter)
    painter.end()
    return image


def test_pictures_and_verdicts_paint_from_the_theme_in_force(panel, appearance, qtbot):
    _stage(panel)
    appearance.apply("dark")
    corner = QPoint(1, 1)  # outside the cells: the canvas
    assert _picture(panel.grid).pixelColor(corner) == themes.DARK.colour("canvas")
    assert _picture(panel.strips).pixelColor(corner) == themes.DARK.colour("canvas")
    first = panel.strips.rows[0]
    x = int(panel.strips.cell_x(first.group.cells, 0)) + 2
    start = _picture(panel.strips).pixelColor(x, int(first.cells_top) + 2)
    assert start == themes.DARK.colour("storage_start")  # storage cell 0: the gradient's start
    panel.tabs.setCurrentWidget(panel.broadcasting)
    panel.broadcasting.example_buttons["(3, 1, 5) with (2, 1)"].click()
    html = panel.broadcasting.result.text()
    assert themes.DARK.colours["verdict_stretched"] in html
    assert themes.LIGHT.colours["verdict_stretched"] not in html
    appearance.apply("light")
    assert _picture(panel.grid).pixelColor(corner) == themes.LIGHT.colour("canvas")
    assert themes.LIGHT.colours["verdict_stretched"] in panel.broadcasting.result.text()


def test_at_200_percent_the_hand_set_sizes_grow_with_the_font(panel, appearance, qtbot):
    _stage(panel)
    strips, grid = panel.strips, panel.grid
    line_before = QFontMetricsF(strips.font()).height()
    left_before = grid._area().left()
    appearance.apply(zoom=2.0)
    qtbot.waitUntil(lambda: QFontMetricsF(strips.font()).height() > 1.5 * line_before)
    line = QFontMetricsF(strips.font()).height()
    for row in strips.rows:  # the storage's title and every lane have room for a line of text
        assert row.cells_top - row.top >= line
        assert row.lane >= line - themes.scaled(4)
    assert strips.minimumHeight() >= strips.rows[-1].bottom
    assert grid._area().left() > 1.5 * left_before - 1  # room for the row title and numbers
    assert "font-size:28px" in panel.details.formula.text()  # the formula's numbers, 14 px × 2
    # The room the area has in a 1280×800 window: the views share it, none is pushed out of
    # sight (the strips keep their title and cells), and the tab itself needs no scrolling.
    panel.resize(1090, 690)
    tab = panel.tabs.widget(0)
    strides = tab.widget()
    first = strips.rows[0]
    qtbot.waitUntil(lambda: strides.strip_scroll.height() >= first.cells_top + first.cells_height)
    assert tab.verticalScrollBar().maximum() == 0
    assert grid.height() >= grid.minimumHeight() > grid._area().top()


@pytest.mark.parametrize("choice", ["light", "dark"])
def test_words_on_every_storage_colour_and_lane_read_at_4_5_to_1(appearance, choice):
    appearance.apply(choice)
    cells = 256
    for cell in range(cells):  # every step of the storage gradient, in the theme in force
        background = storage_colour(cell, cells)
        assert themes.contrast_ratio(text_colour_on(background), background) >= 4.5
    for position in range(8):  # the "×n" written on a lane read more than once
        many = member_colour(position).darker(140)
        assert themes.contrast_ratio(text_colour_on(many), many) >= 4.5
    first, last = storage_colour(0, cells), storage_colour(cells - 1, cells)
    assert first == themes.current_theme().colour("storage_start")
    assert last == themes.current_theme().colour("storage_end")


def test_at_250_percent_the_wrapped_hints_keep_their_lines_and_the_tab_scrolls(
    panel, appearance, qtbot
):
    _stage(panel)
    panel.resize(1090, 690)
    appearance.apply(zoom=2.5)
    tab = panel.tabs.widget(0)
    strides = tab.widget()
    caption = strides.grid_caption

    def whole(label) -> bool:
        return label.height() >= label.heightForWidth(label.width()) > 0

    qtbot.waitUntil(lambda: whole(caption) and whole(strides.summary))
    grid = strides.grid
    assert caption.parentWidget() is grid.parentWidget()
    # the caption above the grid, not over it (once the layout has run again for its new height)
    qtbot.waitUntil(lambda: caption.geometry().bottom() < grid.geometry().top(), timeout=5000)
    assert tab.verticalScrollBar().maximum() > 0  # no room: the tab scrolls, nothing overlaps
