"""Python syntax colours for the script editor: keywords, builtins, strings (triple-quoted ones
across lines too), comments, numbers, decorators, and the names torch / nn / F / np."""

from __future__ import annotations

import builtins
import keyword
import re

from PySide6.QtGui import QColor, QFont, QSyntaxHighlighter, QTextCharFormat


def _format(colour: str, bold: bool = False, italic: bool = False) -> QTextCharFormat:
    text_format = QTextCharFormat()
    text_format.setForeground(QColor(colour))
    if bold:
        text_format.setFontWeight(QFont.Weight.Bold)
    text_format.setFontItalic(italic)
    return text_format


FORMATS = {
    "keyword": _format("#8d3fd3", bold=True),
    "builtin": _format("#3d5a80"),
    "module": _format("#2a7d73", bold=True),
    "string": _format("#b5651d"),
    "comment": _format("#6b7280", italic=True),
    "number": _format("#c0392b"),
    "decorator": _format("#2a9d8f"),
    "definition": _format("#1f2a44", bold=True),
}

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
    def highlightBlock(self, text: str) -> None:
        for pattern, kind in _RULES:
            for match in pattern.finditer(text):
                group = 1 if pattern.groups else 0
                self.setFormat(
                    match.start(group), match.end(group) - match.start(group), FORMATS[kind]
                )
        self.setCurrentBlockState(_OUTSIDE)
        start = 0
        state = self.previousBlockState()
        if state in _DELIMITER:  # inside a triple-quoted string that began on an earlier line
            end = text.find(_DELIMITER[state])
            if end < 0:
                self.setFormat(0, len(text), FORMATS["string"])
                self.setCurrentBlockState(state)
                return
            self.setFormat(0, end + 3, FORMATS["string"])
            start = end + 3
        self._strings_and_comments(text, start)

    def _strings_and_comments(self, text: str, start: int) -> None:
        position = start
        while (match := _STRING_OR_COMMENT.search(text, position)) is not None:
            if match.group("comment"):
                self.setFormat(match.start(), len(text) - match.start(), FORMATS["comment"])
                return
            if match.group("triple"):
                delimiter = match.group("triple")[-3:]
                end = text.find(delimiter, match.end())
                if end < 0:
                    self.setFormat(match.start(), len(text) - match.start(), FORMATS["string"])
                    state = _IN_SINGLE_TRIPLE if delimiter == "'''" else _IN_DOUBLE_TRIPLE
                    self.setCurrentBlockState(state)
                    return
                self.setFormat(match.start(), end + 3 - match.start(), FORMATS["string"])
                position = end + 3
                continue
            self.setFormat(match.start(), match.end() - match.start(), FORMATS["string"])
            position = max(match.end(), match.start() + 1)
