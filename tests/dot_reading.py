"""DOT text read back as Graphviz reads it, and rendered by Graphviz itself where it is installed
(tests that render skip that one step without `dot`; what they assert on the text stays)."""

from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

NODE = re.compile(r'^\s*("(?:[^"\\]|\\.)*")\s*\[label=("(?:[^"\\]|\\.)*")(.*)$', re.MULTILINE)
SVG = "{http://www.w3.org/2000/svg}"


def _unquoted(quoted: str) -> str:
    """A DOT quoted string's value: only \\" is an escape at this level."""
    return quoted[1:-1].replace('\\"', '"')


def label_lines(escstring: str) -> list[str]:
    """The lines Graphviz draws for a label: \\n, \\l, \\r break the line, \\\\ is a backslash."""
    lines, current, i = [], "", 0
    while i < len(escstring):
        char = escstring[i]
        if char == "\\" and i + 1 < len(escstring):
            following = escstring[i + 1]
            if following in "nlr":
                lines.append(current)
                current = ""
            else:
                current += following
            i += 2
            continue
        current += char
        i += 1
    return [*lines, current]


def node_labels(dot_text: str) -> dict[str, list[str]]:
    """Node id → the lines of its label."""
    return {_unquoted(node): label_lines(_unquoted(label))
            for node, label, _rest in NODE.findall(dot_text)}  # fmt: skip


def drawn_lines(dot_text: str) -> dict[str, list[str]]:
    """Node id → the lines of text Graphviz draws for it: a point draws none, an empty line is
    no text."""
    drawn = {}
    for node, label, rest in NODE.findall(dot_text):
        if "shape=point" not in rest:
            drawn[_unquoted(node)] = [line for line in label_lines(_unquoted(label)) if line]
    return drawn


def rendered_labels(dot_text: str) -> dict[str, list[str]] | None:
    """Node id → the lines Graphviz's own SVG shows for it (points left out); None where `dot`
    is not installed."""
    dot = shutil.which("dot")
    if dot is None:
        return None
    svg = subprocess.run([dot, "-Tsvg"], input=dot_text, capture_output=True, text=True,
                         check=True, timeout=120).stdout  # fmt: skip
    found = {}
    for group in ET.fromstring(svg).iter(f"{SVG}g"):
        if group.get("class") == "node":
            title = group.find(f"{SVG}title").text
            if group.find(f"{SVG}ellipse") is not None and not list(group.iter(f"{SVG}text")):
                continue  # a point
            found[title] = [text.text or "" for text in group.iter(f"{SVG}text")]
    return found
