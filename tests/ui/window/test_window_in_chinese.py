"""The window's own texts (menus, navigation, placeholders, status bar, About, the notice bar and
the error panel's headings) under zh_CN, retranslated in the open window; torch's own message
stays as torch wrote it."""

import pytest
import torch
from PySide6.QtCore import QSettings
from test_every_text_translated import leftover_english, visible_texts

from tensorviz.core import translation
from tensorviz.core.explain.errors import explain_error
from tensorviz.ui.widgets.error_panel import ErrorPanel
from tensorviz.ui.window.app_settings import AppSettings
from tensorviz.ui.window.areas import AREAS
from tensorviz.ui.window.main_window import MainWindow
from tensorviz.ui.window.placeholder_panel import PlaceholderPanel


@pytest.fixture(autouse=True)
def english_afterwards(app_settings):
    yield
    app_settings.set_language("en")


def _chinese(window) -> None:
    window.language_menu.choices["zh_CN"].trigger()


def _problems(root, skip: str = "") -> list[str]:
    return [
        f"{where}: {text!r} ({', '.join(words)})"
        for where, text in visible_texts(root)
        if (words := leftover_english(text)) and not (skip and skip in where)
    ]


def test_every_menu_is_chinese_except_what_the_script_area_titles(window, qtbot):
    """The example scripts' titles are core/script's (they come from the files' headers)."""
    _chinese(window)
    qtbot.waitUntil(lambda: window.menus.file_menu.title() == "文件(&F)")
    assert _problems(window.menuBar(), skip="#exampleScripts ") == []
    titles = [a.text() for a in window.menus.view_menu.actions()[: len(AREAS)]]
    assert titles[:3] == ["工作台", "脚本", "内存布局"]
    assert window.navigation.titles() == titles  # the list and View agree


def test_a_language_switch_retranslates_the_open_window(window, qtbot):
    english = {
        "menu": window.menus.edit_menu.title(),
        "undo": window.undo_action.text(),
        "nav": window.navigation.titles(),
        "status": window.torch_status.text(),
        "tip": window.navigation.item(0).toolTip(),
    }
    _chinese(window)
    qtbot.waitUntil(lambda: window.menus.edit_menu.title() == "编辑(&E)")
    assert window.undo_action.text() == "撤销(&U)"
    assert window.navigation.titles()[0] == "工作台" != english["nav"][0]
    assert window.navigation.item(0).toolTip().startswith("工作台 — ")
    threads = torch.get_num_threads()
    assert window.torch_status.text().endswith(f"{threads} 个线程")
    assert torch.__version__ in window.torch_status.text()  # versions stay as torch says them
    window.language_menu.choices["en"].trigger()
    qtbot.waitUntil(lambda: window.menus.edit_menu.title() == english["menu"])
    assert window.navigation.titles() == english["nav"]
    assert window.torch_status.text() == english["status"]
    assert window.navigation.item(0).toolTip() == english["tip"]


def test_placeholders_say_in_chinese_what_their_area_will_show(qtbot, app_settings):
    """Before torch has loaded every area is a placeholder; they follow the language too."""
    app_settings.set_language("zh_CN")
    window = MainWindow(app_settings)
    qtbot.addWidget(window)
    placeholders = [p for p in window.panels.values() if isinstance(p, PlaceholderPanel)]
    assert len(placeholders) == len(AREAS)
    for panel in placeholders:
        assert _problems(panel) == []
    files = window.panels["files"]
    assert "排队" in files.queue_label.text()
    window.language_menu.choices["en"].trigger()
    qtbot.waitUntil(lambda: window.panels["workbench"].title.text() == "Workbench")
    with qtbot.waitSignal(window.ready, timeout=60_000):
        window.show()
    window.close()


def test_the_about_dialog_is_chinese_and_the_versions_are_torchs(window, qtbot):
    _chinese(window)
    about = window.show_about()
    qtbot.waitUntil(lambda: about.windowTitle() == "关于 tensorviz")
    assert _problems(about) == []
    rows = dict(about.rows())
    assert rows["torch"] == torch.__version__
    assert rows["默认数据类型 (dtype)"] == str(torch.get_default_dtype())
    about.close()


def test_the_error_panel_explains_in_chinese_and_quotes_torch_verbatim(qtbot):
    panel = ErrorPanel()
    qtbot.addWidget(panel)
    try:
        torch.ones(2, 3).T.view(-1)
    except RuntimeError as error:
        message = str(error)
        explained = explain_error(error)
    panel.show_error(explained)
    assert panel.torch_message.text() == message  # torch's words, untouched
    assert panel.torch_message.property("verbatim")
    from tensorviz.ui.window.language import LanguageSwitcher

    switcher = LanguageSwitcher.shared()
    try:
        switcher.apply("zh_CN")
        qtbot.waitUntil(lambda: "原因" in panel.body.text())
        assert panel.torch_heading.text() == "<b>torch 的报错</b>"  # the glossary's word
        assert "修正方法" in panel.body.text()
        assert panel.footer_label.text() == "工作区里的内容没有任何改变。"
        assert panel.torch_message.text() == message
    finally:
        switcher.apply("en")
    qtbot.waitUntil(lambda: "Why" in panel.body.text())
    assert translation.current_language() == "en"


def test_a_footer_given_as_a_callable_follows_the_language(qtbot):
    from tensorviz.core.translation import _

    panel = ErrorPanel(
        footer=lambda: _("Your program stopped here; close the window to let it end.")
    )
    qtbot.addWidget(panel)
    try:
        raise ValueError("a plain Python error")
    except ValueError as error:
        panel.show_error(explain_error(error))
    assert panel.footer_label.text().startswith("Your program stopped here")
    from tensorviz.ui.window.language import LanguageSwitcher

    try:
        LanguageSwitcher.shared().apply("zh_CN")
        qtbot.waitUntil(lambda: panel.footer_label.text().startswith("你的程序停在了这里"))
    finally:
        LanguageSwitcher.shared().apply("en")


def test_a_window_started_in_chinese_stays_chinese_once_torch_has_loaded(qtbot, tmp_path):
    settings = AppSettings(QSettings(str(tmp_path / "zh.ini"), QSettings.Format.IniFormat))
    window = MainWindow(settings, language="zh_CN")
    qtbot.addWidget(window)
    with qtbot.waitSignal(window.ready, timeout=60_000):
        window.show()
    assert window.torch_status.text().endswith("个线程")
    assert window.menus.file_menu.title() == "文件(&F)"
    assert settings.language() is None  # a --lang choice is for this run only
    window.language_menu.choices["en"].trigger()
    window.close()
