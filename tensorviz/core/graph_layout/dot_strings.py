"""Graphviz DOT's quoted strings, for the DOT text the Autograd and Architecture views export.

Inside a quoted string DOT turns only `\\"` into a quote; a label is then an escString, where
`\\n` breaks the line and `\\\\` is one backslash. So a label's own text is escaped first and
its lines are joined with the `\\n` escape afterwards — escaping the joined text would turn the
line break into a backslash and an "n" on the picture."""

from __future__ import annotations


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def dot_id(text: str) -> str:
    """A node, cluster or attribute value, quoted."""
    return f'"{_escaped(text)}"'


def dot_label(*lines: str) -> str:
    """A label of these lines (each may hold line breaks of its own), quoted: one line each."""
    parts = [part for line in lines for part in line.split("\n")]
    return '"' + "\\n".join(_escaped(part) for part in parts) + '"'
