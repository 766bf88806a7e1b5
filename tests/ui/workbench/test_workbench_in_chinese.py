"""The open Workbench follows View → Language, Theme and Zoom: its texts are said again in the
new language (static and dynamic ones), its charts and badge take the theme's colours, and its
table grows with the zoom."""

import importlib.util
import re
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtWidgets import QWidget

from tensorviz.ui.widgets import theme as themes
from tensorviz.ui.widgets.error_panel import ErrorPanel

CJK = re.compile(r"[\u4e00-\u9fff]")

_WALKER = Path(__file__).parents[1] / "window" / "test_every_text_translated.py"
_spec = importlib.util.spec_from_file_location("every_text_walker", _WALKER)
walker = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(walker)  # the one rule of what counts as English left over


@pytest.fixture
def workbench(window, qtbot):
    window.show_area("workbench")
    panel = window.panel("workbench")
    qtbot.waitUntil(panel.isVisible)
    qtbot.waitUntil(lambda: panel.values.summary is not None)  # x_t's statistics are shown
    yield panel
    window.language_menu.choices["en"].trigger()
    window.theme_menu.choices["light"].trigger()
    window.appearance.apply(zoom=1.0)


def _texts(panel) -> dict[str, str]:
    dim0 = panel.operate_form.params.editors["dim0"]
    return {
        "tab": panel.tabs.tabText(0),
        "button": panel.operate_form.button.text(),
        "parameter": panel.operate_form.params.layout_.labelForField(dim0).text(),
        "sharing": panel.identity.sharing.text(),
        "verdict": panel.identity.verdict.text(),
        "summary": panel.values.summary_label.text(),
        "rename": panel.rename_button.text(),
        "rows": panel.values.rows_label.text(),
        "error footer": panel.error_panel.footer,  # said under the next error shown
    }


def test_switching_language_says_the_open_workbench_again(window, workbench, qtbot):
    english = _texts(workbench)
    assert english["tab"] == "Apply operation" and english["parameter"] == "dim0"
    window.language_menu.choices["zh_CN"].trigger()
    qtbot.waitUntil(lambda: CJK.search(workbench.tabs.tabText(0)) is not None)
    chinese = _texts(workbench)
    for key, text in chinese.items():
        assert CJK.search(text) and text != english[key], key
        assert walker.leftover_english(text) == [], (key, text)
    assert "dim0" in chinese["parameter"]  # torch's name stays beside the word
    assert "x_t" in chinese["summary"]  # the dynamic summary line, said again
    window.language_menu.choices["en"].trigger()
    qtbot.waitUntil(lambda: workbench.tabs.tabText(0) == "Apply operation")
    assert _texts(workbench) == english


def _outside_error_panel(root: QWidget) -> list[tuple[str, str]]:
    """The walker's texts minus the shared ErrorPanel's (ui/widgets: the window unit's)."""
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)  # rebuilt rows gone
    shared = {
        item for panel in root.findChildren(ErrorPanel) for item in walker.visible_texts(panel)
    }
    return [item for item in walker.visible_texts(root) if item not in shared]


def test_no_english_is_left_in_the_workbench_under_zh_cn(window, workbench, qtbot):
    window.language_menu.choices["zh_CN"].trigger()
    qtbot.waitUntil(lambda: CJK.search(workbench.tabs.tabText(0)) is not None)
    for form in (0, 1):  # both forms' editors exist; their labels are walked
        workbench.tabs.setCurrentIndex(form)
    problems = [
        f"{where}: {text!r}"
        for where, text in _outside_error_panel(workbench)
        if walker.leftover_english(text)
    ]
    assert problems == []


def test_dark_theme_and_zoom_restyle_charts_badge_and_table(window, workbench, qtbot):
    charts, badge = workbench.values.charts, workbench.identity.verdict
    row_height = workbench.values.table.verticalHeader().defaultSectionSize()
    window.theme_menu.choices["dark"].trigger()
    window.appearance.apply(zoom=2.0)
    dark = themes.DARK.colours
    background = charts.histogram_plot.backgroundBrush().color().name()
    assert background == dark["plot_background"]
    assert dark["verdict_view"] in badge.styleSheet() and dark["verdict_text"] in badge.styleSheet()
    assert workbench.values.table.verticalHeader().defaultSectionSize() > 1.6 * row_height
    window.theme_menu.choices["light"].trigger()
    assert (
        charts.histogram_plot.backgroundBrush().color().name()
        == (themes.LIGHT.colours["plot_background"])
    )


def test_at_200_percent_the_error_card_fits_its_column(window, workbench, qtbot):
    """The card below the error may be wider than the column and scroll sideways; the error
    card wraps in the visible part, its Copy and ✕ buttons in sight."""
    from tensorviz.ui.workbench.action_forms import select_data

    window.resize(1280, 800)
    window.appearance.apply(zoom=2.0)
    splitter = workbench.card_scroll.parentWidget()  # the column as the 1280-px window has it
    splitter.setSizes([500, 300])
    form = workbench.operate_form
    select_data(form.kind, "view")
    form.set_input("x_t")
    form.params.set_values({"shape": "-1"})
    form.submit()
    panel = workbench.error_panel
    qtbot.waitUntil(panel.isVisible)
    viewport = workbench.card_scroll.viewport()
    qtbot.waitUntil(lambda: panel.width() <= viewport.width())
    for button in (panel.copy_button, panel.close_button):
        right = button.mapTo(viewport, button.rect().topRight()).x()
        assert 0 <= right < viewport.width(), button.text()
