"""The Script area in Chinese: after a run, every text it shows (buttons, menus, tooltips, the
status line, the Captured list's title, rows and notes, the error line) is Chinese under zh_CN,
torch's own message stays as torch wrote it, and switching the language while the area shows a
run's results re-words all of it, back to the very same English."""

import importlib.util
import sys
from pathlib import Path

import pytest
import torch

from tensorviz.core import translation
from tensorviz.core.script.output import output_is_routed
from tensorviz.core.tensors.workspace import Workspace
from tensorviz.ui.script.captured_list import MARK_COLUMN
from tensorviz.ui.script.script_panel import ScriptPanel
from tensorviz.ui.script.script_toolbar import StatusLine
from tensorviz.ui.window.language import LanguageSwitcher

TIMEOUT = 20_000
# The window's walker holds the rule of what may stay English (code, names, units); load it by
# path (test folders are not packages), so both tests judge a text the same way.
_WALKER_PATH = Path(__file__).parents[1] / "window" / "test_every_text_translated.py"
_spec = importlib.util.spec_from_file_location("script_text_walker", _WALKER_PATH)
walker = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(walker)

FAILING = "t = torch.arange(6.0).reshape(2, 3)\nu = t.T\nbad = t @ torch.ones(2, 2)\n"
FINISHING = "t = torch.arange(6.0).reshape(2, 3)\nu = t.T\nv = u.contiguous()\n"


@pytest.fixture
def languages():
    switcher = LanguageSwitcher.shared()
    yield switcher
    switcher.apply("en")
    assert translation.current_language() == "en"


@pytest.fixture
def panel(qtbot, app_settings):
    stdout, stderr = sys.stdout, sys.stderr
    widget = ScriptPanel(Workspace(), app_settings)
    qtbot.addWidget(widget)
    widget.resize(1100, 700)
    widget.show()
    yield widget
    widget.shutdown()
    assert widget.thread is None and sys.stdout is stdout and not output_is_routed()
    assert sys.stderr is stderr


def run(qtbot, panel, source: str) -> str:
    panel.editor.setPlainText(source)
    with qtbot.waitSignal(panel.run_finished, timeout=TIMEOUT) as finished:
        panel.run_button.click()
    return finished.args[0]


def texts_of_the_area(panel) -> list[tuple[str, str]]:
    """What the area shows, less the explanation panel: a shared widget (ui/widgets, the window
    unit's), judged under its own walker key; the Captured rows' cells and tooltips too."""
    shared = walker.visible_texts(panel.error_box.explanation)
    found = [t for t in walker.visible_texts(panel) if t not in shared]
    tree = panel.captured.tree
    for i in range(tree.topLevelItemCount()):
        item = tree.topLevelItem(i)
        found.append((f"captured row {i} mark", item.text(MARK_COLUMN)))
        found.append((f"captured row {i} tip", item.toolTip(0)))
    found.append(("output placeholder", panel.output.placeholderText()))
    return found


def switch(qtbot, languages, panel, language: str) -> None:
    """Qt posts LanguageChange to every widget: wait until the area has had it."""
    before = panel.run_button.text()
    languages.apply(language)
    qtbot.waitUntil(lambda: panel.run_button.text() != before)


def english_left(panel) -> list[str]:
    return [
        f"{where}: {text!r}"
        for where, text in texts_of_the_area(panel)
        if walker.leftover_english(text)
    ]


def test_a_failed_run_reads_in_chinese_with_torchs_message_verbatim(qtbot, panel, languages):
    switch(qtbot, languages, panel, "zh_CN")
    assert run(qtbot, panel, FAILING) == "failed"
    with pytest.raises(RuntimeError) as torch_error:
        torch.arange(6.0).reshape(2, 3) @ torch.ones(2, 2)
    shown = panel.error_box.explanation.torch_message.text()  # a plain-text label of its own
    assert str(torch_error.value) in shown  # torch's words, untranslated
    assert panel.captured.names() == ["t", "u"]  # what existed before the error on line 3
    assert "3" in panel.captured.title.text() and "3" in panel.error_box.headline.text()
    assert english_left(panel) == []


def test_a_language_switch_rewords_the_open_area_and_back(qtbot, panel, languages):
    assert run(qtbot, panel, FINISHING) == "finished"
    english = texts_of_the_area(panel)
    assert panel.status.text().startswith("Finished in")
    assert english_left(panel) != []  # the rule does see English here

    switch(qtbot, languages, panel, "zh_CN")
    chinese = texts_of_the_area(panel)
    assert english_left(panel) == []
    assert len(chinese) == len(english)
    pairs = zip(chinese, english, strict=True)
    changed = {where for (where, text), (_where, before) in pairs if text != before}
    for where in ("StatusLine#scriptStatus text", "QLabel#sectionTitle text", "captured row 0 mark",
                  "captured row 0 tip", "QLabel#scriptInterpreter text"):  # fmt: skip
        assert where in changed, where

    switch(qtbot, languages, panel, "en")
    assert texts_of_the_area(panel) == english


def test_a_syntax_error_and_a_stop_read_in_chinese(qtbot, panel, languages):
    switch(qtbot, languages, panel, "zh_CN")
    assert run(qtbot, panel, "x = (1,\n") == "syntax_error"
    assert english_left(panel) == []
    panel.editor.setPlainText("import time\nwhile True:\n    time.sleep(0.01)\n")
    with qtbot.waitSignal(panel.run_finished, timeout=TIMEOUT):
        panel.run_button.click()
        qtbot.waitUntil(panel.is_running)
        panel.stop_button.click()
    assert english_left(panel) == []


def test_a_status_line_with_no_room_ends_in_an_ellipsis_and_keeps_the_whole_in_its_tip(qtbot):
    status = StatusLine()
    qtbot.addWidget(status)
    sentence = "在第 4 行失败 —— 出错前捕获了 3 个张量；工作区原有的张量保持不变"
    status.setText(sentence)
    status.resize(status.fontMetrics().horizontalAdvance(sentence) * 2, 30)
    status.grab()  # paints
    assert status.toolTip() == ""  # room for all of it
    status.resize(status.fontMetrics().horizontalAdvance(sentence) // 2, 30)
    status.grab()
    assert status.toolTip() == sentence and status.text() == sentence
