"""The script editor's keys and colours, and the output pane's stream colours."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor

from tensorviz.ui.script.code_editor import CodeEditor
from tensorviz.ui.script.output_view import OutputView
from tensorviz.ui.widgets.theme import colour


@pytest.fixture
def editor(qtbot):
    widget = CodeEditor()
    qtbot.addWidget(widget)
    widget.show()
    return widget


def colour_at(editor, line: int, column: int) -> str:
    block = editor.document().findBlockByNumber(line)
    for fmt_range in block.layout().formats():
        if fmt_range.start <= column < fmt_range.start + fmt_range.length:
            return fmt_range.format.foreground().color().name()
    return ""


def test_colours_keywords_strings_comments_and_triple_quoted_strings(editor):
    editor.setPlainText(
        'def f(x):  # note\n    s = """one\ntwo # not a comment\n"""\n    return 3\n'
    )
    keyword, string, comment, number = (
        colour(f"syntax_{kind}").name() for kind in ("keyword", "string", "comment", "number")
    )
    assert len({keyword, string, comment, number}) == 4
    assert colour_at(editor, 0, 0) == keyword  # def
    assert colour_at(editor, 0, 12) == comment
    assert colour_at(editor, 1, 10) == string  # """one
    assert colour_at(editor, 2, 5) == string  # a "#" inside the string stays a string
    assert colour_at(editor, 3, 0) == string  # the closing quotes
    assert colour_at(editor, 4, 4) == keyword and colour_at(editor, 4, 11) == number


def test_tab_inserts_spaces_enter_keeps_indent_and_ctrl_slash_comments(qtbot, editor):
    editor.setPlainText("")
    qtbot.keyClicks(editor, "for i in range(3):")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.keyClicks(editor, "pass")
    assert editor.toPlainText() == "for i in range(3):\n    pass"
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.keyClick(editor, Qt.Key.Key_Tab)
    assert editor.toPlainText().endswith("\n        ")
    editor.setPlainText("a = 1\n  b = 2\n")
    editor.selectAll()
    qtbot.keyClick(editor, Qt.Key.Key_Slash, Qt.KeyboardModifier.ControlModifier)
    assert editor.toPlainText() == "# a = 1\n#   b = 2\n"
    qtbot.keyClick(editor, Qt.Key.Key_Slash, Qt.KeyboardModifier.ControlModifier)
    assert editor.toPlainText() == "a = 1\n  b = 2\n"


def test_failing_line_and_go_to_line(editor):
    editor.setPlainText("a\nb\nc\n")
    editor.set_failing_line(2)
    assert len(editor.extraSelections()) == 2
    editor.go_to_line(3)
    assert editor.textCursor().blockNumber() == 2
    editor.set_failing_line(0)
    assert len(editor.extraSelections()) == 1


def test_ctrl_enter_and_esc_signal(qtbot, editor):
    with qtbot.waitSignal(editor.run_requested):
        qtbot.keyClick(editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    with qtbot.waitSignal(editor.stop_requested):
        qtbot.keyClick(editor, Qt.Key.Key_Escape)


def test_output_colours_streams_and_notes_skipped_text(qtbot):
    view = OutputView()
    qtbot.addWidget(view)
    view.append_chunks([("stdout", "out\n"), ("stderr", "err\n")], skipped_chars=10)
    text = view.text()
    assert "10 characters of output dropped" in text and text.index("out") < text.index("err")
    cursor = QTextCursor(view.document().findBlockByNumber(2))
    cursor.movePosition(QTextCursor.MoveOperation.Right)
    assert cursor.charFormat().foreground().color().name() == colour("error_text").name()


@pytest.fixture
def appearance():
    from tensorviz.ui.window.appearance import Appearance

    shared = Appearance.shared()
    yield shared
    shared.apply("light", 1.0)


def test_theme_and_zoom_restyle_the_editor_and_the_output_already_shown(qtbot, appearance):
    from tensorviz.ui.widgets.theme import DARK, LIGHT

    appearance.apply("light", 1.0)
    editor, view = CodeEditor(), OutputView()
    for widget in (editor, view):
        qtbot.addWidget(widget)
        widget.show()
    editor.setPlainText("def f(x):  # a comment\n" + "\n" * 120)
    view.append_chunks([("stdout", "out\n"), ("stderr", "err\n")])
    stderr = QTextCursor(view.document().findBlockByNumber(1))
    stderr.movePosition(QTextCursor.MoveOperation.Right)
    assert colour_at(editor, 0, 0) == LIGHT.colour("syntax_keyword").name()
    size, gutter = editor.font().pointSizeF(), editor.gutter_width()

    appearance.apply("dark")
    qtbot.waitUntil(lambda: colour_at(editor, 0, 0) == DARK.colour("syntax_keyword").name())
    assert colour_at(editor, 0, 12) == DARK.colour("syntax_comment").name()
    stderr = QTextCursor(view.document().findBlockByNumber(1))
    stderr.movePosition(QTextCursor.MoveOperation.Right)
    assert stderr.charFormat().foreground().color() == DARK.colour("error_text")  # recoloured

    appearance.apply(zoom=2.0)
    qtbot.waitUntil(lambda: editor.font().pointSizeF() == pytest.approx(2 * size))
    assert view.font().pointSizeF() == pytest.approx(2 * size)
    assert editor.gutter_width() > 1.8 * gutter and editor.gutter.width() == editor.gutter_width()
