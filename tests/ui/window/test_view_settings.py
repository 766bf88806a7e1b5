"""View → Language, Theme and Zoom: applied to the open window at once, remembered, and the
language switch reaches Qt's own dialogs (qtbase_zh_CN.qm) and core's gettext catalogue."""

import pytest
from PySide6.QtGui import QFontDatabase, QRawFont
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from tensorviz.core import translation
from tensorviz.ui.widgets import theme as themes
from tensorviz.ui.window.cjk_fonts import cjk_family
from tensorviz.ui.window.main_window import MainWindow


@pytest.fixture(autouse=True)
def english_afterwards(app_settings):
    yield
    app_settings.set_language("en")
    app_settings.set_theme("light")
    app_settings.set_zoom(1.0)


def test_switching_language_retranslates_the_open_window(window, qtbot):
    menu = window.language_menu
    assert menu.title() == "&Language"
    menu.choices["zh_CN"].trigger()
    qtbot.waitUntil(lambda: menu.title() == "语言(&L)")
    assert translation.current_language() == "zh_CN"
    cancel = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
    assert cancel.button(QDialogButtonBox.StandardButton.Cancel).text() == "取消"  # Qt's own
    assert window.settings.language() == "zh_CN"
    menu.choices["en"].trigger()
    qtbot.waitUntil(lambda: menu.title() == "&Language")
    assert translation.current_language() == "en"


def test_language_is_remembered_and_a_command_line_choice_is_not_saved(qtbot, app_settings):
    app_settings.set_language("zh_CN")
    first = MainWindow(app_settings)
    qtbot.addWidget(first)
    assert first.language_menu.title() == "语言(&L)"
    first.close()
    second = MainWindow(app_settings, language="en")
    qtbot.addWidget(second)
    assert second.language_menu.title() == "&Language"
    assert app_settings.language() == "zh_CN"
    second.close()


@pytest.mark.parametrize("theme", list(themes.THEMES.values()), ids=list(themes.THEMES))
def test_every_text_colour_is_readable_on_its_background(theme):
    for text, background in themes.TEXT_ON_BACKGROUND:
        ratio = themes.contrast_ratio(theme.colour(text), theme.colour(background))
        assert ratio >= 4.5, f"{theme.key}: {text} on {background} is {ratio:.2f}:1"


def test_contrast_ratio_is_wcag_s():
    black, white = themes.LIGHT.colour("ink"), themes.LIGHT.colour("window")
    assert themes.contrast_ratio(white, white) == pytest.approx(1.0)
    assert themes.contrast_ratio(black, white) == themes.contrast_ratio(white, black)
    from PySide6.QtGui import QColor

    assert themes.contrast_ratio(QColor("#000000"), QColor("#ffffff")) == pytest.approx(21.0)


def test_stylesheet_fills_every_role_and_scales_sizes():
    normal = themes.stylesheet(themes.DARK, 1.0)
    big = themes.stylesheet(themes.DARK, 2.0)
    assert "{{" not in normal and themes.DARK.colours["navigation"] in normal
    assert "font-size: 26px" in normal and "font-size: 52px" in big


def test_theme_and_zoom_apply_to_the_application_and_are_remembered(window, qtbot):
    app = QApplication.instance()
    base = app.font().pointSizeF()
    window.theme_menu.choices["dark"].trigger()
    assert app.palette().window().color() == themes.DARK.colour("window")
    assert themes.current_theme() is themes.DARK
    # From 100 %: every step up to the largest, and one more that stays clamped there.
    for _ in range(len(themes.ZOOM_STEPS) - themes.ZOOM_STEPS.index(1.0)):
        window.zoom_menu.zoom_in.trigger()
    assert window.appearance.zoom == themes.ZOOM_STEPS[-1] == 2.5
    assert app.font().pointSizeF() == pytest.approx(base * 2.5)
    assert "250" in window.zoom_menu.title()
    assert window.settings.zoom() == 2.5 and window.settings.theme() == "dark"
    window.zoom_menu.reset.trigger()
    assert app.font().pointSizeF() == pytest.approx(base)
    for _ in range(themes.ZOOM_STEPS.index(1.0) + 1):  # down to the smallest, one more: clamped
        window.zoom_menu.zoom_out.trigger()
    assert window.appearance.zoom == themes.ZOOM_STEPS[0] == 0.75
    window.zoom_menu.reset.trigger()
    window.theme_menu.choices["light"].trigger()
    assert app.palette().window().color() == themes.LIGHT.colour("window")


def test_a_cjk_font_renders_every_chinese_character_of_the_catalogues(qapp):
    from tensorviz.resource_files import resource_path

    family = cjk_family()
    assert family is not None, "no font with Chinese glyphs is installed (.ci/run installs one)"
    assert family in QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese)
    text = "".join(
        path.read_text(encoding="utf-8")
        for folder in (resource_path("translations"), resource_path("locale"))
        for path in folder.rglob("*.[tp][so]")
    )
    chinese = sorted(
        {ch for ch in text if "\u3000" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef"}
    )
    assert chinese, "the catalogues hold no Chinese at all"
    from PySide6.QtGui import QFont

    raw = QRawFont.fromFont(QFont(family), QFontDatabase.WritingSystem.SimplifiedChinese)
    assert raw.familyName() == family
    missing = [ch for ch in chinese if not raw.supportsCharacter(ord(ch))]
    assert missing == []


def test_system_theme_follows_the_desktops_colour_scheme_live(window, qtbot, monkeypatch):
    """Qt tells of a desktop switch with styleHints().colorSchemeChanged (the offscreen platform
    never switches by itself, so the scheme it reports is patched and the signal sent)."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication

    from tensorviz.ui.window import appearance

    app, hints = QApplication.instance(), QGuiApplication.styleHints()
    scheme = [Qt.ColorScheme.Light]
    monkeypatch.setattr(hints.__class__, "colorScheme", lambda self: scheme[0])
    window.theme_menu.choices["system"].trigger()
    assert app.palette().window().color() == themes.LIGHT.colour("window")
    scheme[0] = Qt.ColorScheme.Dark  # the desktop turns dark
    assert appearance.system_theme() is themes.DARK
    with qtbot.waitSignal(window.appearance.changed):
        hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)
    assert app.palette().window().color() == themes.DARK.colour("window")
    assert themes.current_theme() is themes.DARK and window.settings.theme() == "system"
    scheme[0] = Qt.ColorScheme.Light
    with qtbot.waitSignal(window.appearance.changed):
        hints.colorSchemeChanged.emit(Qt.ColorScheme.Light)
    assert app.palette().window().color() == themes.LIGHT.colour("window")
    window.theme_menu.choices["light"].trigger()  # a chosen theme no longer follows the desktop
    scheme[0] = Qt.ColorScheme.Dark
    with qtbot.assertNotEmitted(window.appearance.changed):
        hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)
    assert app.palette().window().color() == themes.LIGHT.colour("window")


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_navigation_list_shows_whole_titles_at_every_zoom(window, qtbot, language):
    """At each zoom step on a 1280×800 window: every title fits its row un-elided, or the list
    shows icons alone; every row can be scrolled to."""
    window.language_menu.choices[language].trigger()
    window.resize(1280, 800)
    navigation = window.navigation
    for zoom in themes.ZOOM_STEPS:
        window.appearance.apply(zoom=zoom)
        qtbot.waitUntil(lambda: navigation.iconSize().width() == themes.scaled(28))
        metrics = navigation.fontMetrics()
        if navigation.compact:
            assert all(navigation.item(r).text() == "" for r in range(navigation.count()))
        else:
            room = navigation.viewport().width() - navigation.iconSize().width()
            for title in navigation.titles():
                assert metrics.horizontalAdvance(title) < room, (zoom, title)
        rows = sum(navigation.sizeHintForRow(r) for r in range(navigation.count()))
        if rows > navigation.viewport().height():
            assert navigation.verticalScrollBar().maximum() > 0, zoom
    window.appearance.apply(zoom=1.0)
    window.language_menu.choices["en"].trigger()
