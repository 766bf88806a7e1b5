"""What the caller wrote: the source text of each argument of the call being made in a frame
(`tensorviz.show(x, model.fc.weight)` → "x", "model.fc.weight"), read from the call's position
in the bytecode (Python ≥ 3.11 records one for every instruction) and the file's source.
Nothing is evaluated; where the source cannot be found (an interactive prompt without history,
a compiled file) the names come from the caller's variables that hold the same object.
"""

from __future__ import annotations

import ast
import itertools
import linecache
import re
import sys
from dataclasses import dataclass
from types import FrameType

from tensorviz.core.translation import _


@dataclass(frozen=True)
class CallSite:
    """Where the caller is: file, line and function, and what its call's arguments say."""

    filename: str
    line: int
    function: str
    positional: tuple[str | None, ...] = ()  # the source of each positional argument
    keywords: dict[str, str] | None = None  # keyword → the source of its value

    def where(self) -> str:
        """ "train.py, line 12 in step()" ("Cell In[3], line 2" in a notebook), in the language
        in force."""
        file = notebook_cell(self.filename) or _short_file(self.filename)
        if self.function in ("<module>", ""):
            return _("{file}, line {line}").format(file=file, line=self.line)
        return _("{file}, line {line} in {function}()").format(
            file=file, line=self.line, function=self.function
        )


def call_site(frame: FrameType) -> CallSite:
    """The call `frame` is making right now (its current instruction is that call)."""
    code = frame.f_code
    base = CallSite(code.co_filename, frame.f_lineno or 0, code.co_name)
    call = _call_node(frame)
    if call is None:
        return base
    source, node = call
    positional: list[str | None] = []
    for argument in node.args:
        if isinstance(argument, ast.Starred):  # *args: which text goes with which is unknown
            break
        positional.append(ast.get_source_segment(source, argument))
    keywords = {
        k.arg: ast.get_source_segment(source, k.value) or k.arg for k in node.keywords if k.arg
    }
    return CallSite(base.filename, base.line, base.function, tuple(positional), keywords)


def _call_node(frame: FrameType) -> tuple[str, ast.Call] | None:
    try:
        positions = next(
            itertools.islice(frame.f_code.co_positions(), frame.f_lasti // 2, None), None
        )
    except (AttributeError, ValueError):
        return None
    if positions is None or None in positions:
        return None
    first, last, start, end = positions
    lines = linecache.getlines(frame.f_code.co_filename, frame.f_globals)
    if not lines or last > len(lines):
        return None
    # Column offsets count UTF-8 bytes.
    chunk = [line.encode("utf-8") for line in lines[first - 1 : last]]
    if len(chunk) == 1:
        text = chunk[0][start:end]
    else:
        text = chunk[0][start:] + b"".join(chunk[1:-1]) + chunk[-1][:end]
    source = text.decode("utf-8", errors="replace")
    for attempt in (source, f"(\n{source}\n)"):  # a call spread over lines parses in brackets
        try:
            node = ast.parse(attempt, mode="eval").body
        except SyntaxError:
            continue
        if isinstance(node, ast.Call):
            return attempt, node
    return None


def names_holding(value, frame: FrameType) -> list[str]:
    """The caller's local, then global, variables bound to this very object."""
    found = [n for n, v in frame.f_locals.items() if v is value]
    found += [n for n, v in frame.f_globals.items() if v is value and n not in found]
    return [n for n in found if not n.startswith("_")]


_IPYTHON_INPUT = re.compile(r"<ipython-input-(\d+)-[0-9a-f]+>")  # IPython's CachingCompiler
_IPYKERNEL_CELL = re.compile(r"[/\\]ipykernel_\d+[/\\]\d+\.py")  # ipykernel's XCachingCompiler


def notebook_cell(filename: str) -> str | None:
    """ "Cell In[3]" for the file IPython compiled cell 3 into, as IPython's own tracebacks name
    it; None for any other file. The running shell's compiler knows every cell's number
    (format_code_name, IPython ≥ 8); without one, IPython's `<ipython-input-3-…>` says it, and
    ipykernel's `/tmp/ipykernel_PID/HASH.py` is at least a notebook cell."""
    ipython = sys.modules.get("IPython")
    shell = getattr(ipython, "get_ipython", lambda: None)() if ipython is not None else None
    name_of = getattr(getattr(shell, "compile", None), "format_code_name", None)
    if callable(name_of):
        try:
            named = name_of(filename)
        except Exception:  # noqa: BLE001 — an older or odd shell: the file's own name says it
            named = None
        if named:
            return " ".join(named)
    if match := _IPYTHON_INPUT.fullmatch(filename):
        return f"Cell In[{match[1]}]"
    if _IPYKERNEL_CELL.search(filename):
        return _("a notebook cell")
    return None


def _short_file(filename: str) -> str:
    if filename.startswith("<"):  # <stdin>, <ipython-input-3-…>
        return filename
    return filename.replace("\\", "/").rsplit("/", 1)[-1]
