"""Python syntax colours for the script editor: keywords, builtins, strings (triple-quoted ones
across lines too), comments, numbers, decorators, and the names torch / nn / F / np. The colours
are the theme's `syntax_*` roles (readable on both themes' editor background, current and
failing line); the editor has the text coloured again when the theme changes."""

from __future__ import annotations

import builtins
import keyword
import re

from PySide6.QtGui import QFont, QSyntaxHighlighter, QTextCharFormat

from tensorviz.ui.widgets.theme import colour

# kind → (bold, italic); the colour is the theme's role `syntax_<kind>`
STYLES = {
    "keyword": (True, False),
    "builtin": (False, False),
    "module": (True, False),
    "string": (False, False),
    "comment": (False, True),
    "number": (False, False),
    "decorator": (False, False),
    "definition": (True, False),
}


def syntax_formats() -> dict[str, QTextCharFormat]:
    """Each kind's format in the theme in force."""
    formats = {}
    for kind, (bold, italic) in STYLES.items():
        text_format = QTextCharFormat()
        text_format.setForeground(colour(f"syntax_{kind}"))
        if bold:
            text_format.setFontWeight(QFont.Weight.Bold)
        text_format.setFontItalic(italic)
        formats[kind] = text_format
    return formats


_BUILTINS = sorted(n for n in dir(builtins) if not n.startswith("_"))
_RULES = [
    (re.compile(r"\b(" + "|".join(keyword.kwlist + keyword.softkwlist) + r")\b"), "keyword"),
    (re.compile(r"\b(" + "|".join(_BUILTINS) + r")\b"), "builtin"),
    (re.compile(r"\b(torch|nn|F|np)\b"), "module"),
    (re.compile(r"\b(?:def|class)\s+(\w+)"), "definition"),
    (
        re.compile(
            r"\b(?:0[xob][0-9a-f_]+|\d[\d_]*\.?\d*(?:e[+-]?\d+)?j?|\.\d+(?:e[+-]?\d+)?)\b", re.I
        ),
        "number",
    ),
    (re.compile(r"^\s*@[\w.]+", re.M), "decorator"),
]
# One-line strings (with an optional prefix) and comments, scanned left to right so a "#" in a
# string is not a comment and a quote in a comment is not a string.
_STRING_OR_COMMENT = re.compile(
    r"""(?P<triple>[rbuf]{0,2}(?:'''|\"\"\"))|(?P<string>[rbuf]{0,2}(?:'(?:\\.|[^'\\])*'?|"(?:\\.|[^"\\])*"?))|(?P<comment>\#.*)""",
    re.I,
)
_OUTSIDE, _IN_SINGLE_TRIPLE, _IN_DOUBLE_TRIPLE = 0, 1, 2
_DELIMITER = {_IN_SINGLE_TRIPLE: "'''", _IN_DOUBLE_TRIPLE: '"""'}


class PythonHighlighter(QSyntaxHighlighter):
    def __init__(self, document) -> None:
        super().__init__(document)
        self.formats = syntax_formats()

    def restyle(self) -> None:
        """Colour the text again in the theme in force (its editor calls this)."""
        self.formats = syntax_formats()
        self.rehighlight()

    def highlightBlock(self, text: str) -> None:
        for pattern, kind in _RULES:
            for match in pattern.finditer(text):
                group = 1 if pattern.groups else 0
                self.setFormat(
                    match.start(group), match.end(group) - match.start(group), self.formats[kind]
                )
        self.setCurrentBlockState(_OUTSIDE)
        start = 0
        state = self.previousBlockState()
        if state in _DELIMITER:  # inside a triple-quoted string that began on an earlier line
            end = text.find(_DELIMITER[state])
            if end < 0:
                self.setFormat(0, len(text), self.formats["string"])
                self.setCurrentBlockState(state)
                return
            self.setFormat(0, end + 3, self.formats["string"])
            start = end + 3
        self._strings_and_comments(text, start)

    def _strings_and_comments(self, text: str, start: int) -> None:
        position = start
        while (match := _STRING_OR_COMMENT.search(text, position)) is not None:
            if match.group("comment"):
                self.setFormat(match.start(), len(text) - match.start(), self.formats["comment"])
                return
            if match.group("triple"):
                delimiter = match.group("triple")[-3:]
                end = text.find(delimiter, match.end())
                if end < 0:
                    self.setFormat(match.start(), len(text) - match.start(), self.formats["string"])
                    state = _IN_SINGLE_TRIPLE if delimiter == "'''" else _IN_DOUBLE_TRIPLE
                    self.setCurrentBlockState(state)
                    return
                self.setFormat(match.start(), end + 3 - match.start(), self.formats["string"])
                position = end + 3
                continue
            self.setFormat(match.start(), match.end() - match.start(), self.formats["string"])
            position = max(match.end(), match.start() + 1)
