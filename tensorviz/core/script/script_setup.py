"""A script set up as `python SCRIPT.py ARG ...` sets it up, and everything put back afterwards.

What CPython 3.11 does for `python SCRIPT.py a b` (tests/core/script/test_script_setup.py holds
us to a real `python SCRIPT.py`, run beside us):

- `sys.argv` is `[SCRIPT, "a", "b"]`, SCRIPT as it was typed;
- `sys.path[0]` is the script's folder, symlinks resolved, so a module beside the script (a
  project's `data.py`, the book's `d2l/` package) imports;
- `__file__` is the absolute path of SCRIPT (not resolved), and so is the code's filename:
  tracebacks say `File "/home/me/train.py", line 3` and `linecache` finds the lines;
- `sys.modules["__main__"]` is the script's own module, whose namespace the script runs in:
  `pickle`, `torch.save(model)` and `dataclasses` find the script's classes there.

Text that has no file (pasted into the Script area) runs as it always has: code filename
"<script>", no `__file__`, the process's own sys.argv and sys.path.

The Script area runs scripts in the app's own process, so all of this is temporary: sys.argv,
sys.path and sys.modules["__main__"] are put back when the run ends, and the modules imported
from the script's folder during the run are forgotten, so the next run imports the helper module
again, as a new `python SCRIPT.py` would (after the user edited it, say). The folder goes in front
of sys.path instead of replacing the first entry, which stays second: the app's own lazy imports
in other threads must keep working while a script runs.

Use: `with python_setup(ScriptFile(path, args), namespace, source) as namespace: exec(code,
namespace)`, the code compiled with `ScriptFile.code_filename`.
"""

from __future__ import annotations

import linecache
import os
import sys
import types
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from tensorviz.core.explain.error_origin import code_owner
from tensorviz.core.script.source import SCRIPT_FILENAME


@dataclass(frozen=True)
class ScriptFile:
    """Where a script's text comes from: `path` as the user gave it (None: no file, pasted text)
    and the arguments it is run with (its sys.argv[1:])."""

    path: str | None = None
    args: Sequence[str] = field(default_factory=tuple)

    @property
    def code_filename(self) -> str:
        """The filename the script's code is compiled with: what tracebacks and frames say."""
        return os.path.abspath(self.path) if self.path else SCRIPT_FILENAME

    @property
    def folder(self) -> str | None:
        """sys.path[0] while it runs: the script's folder, symlinks resolved, as python has it."""
        return os.path.dirname(os.path.realpath(self.path)) if self.path else None

    @property
    def argv(self) -> list[str]:
        return [self.path or "", *self.args]


NO_FILE = ScriptFile()


@contextmanager
def python_setup(script: ScriptFile, namespace: dict, source: str) -> Iterator[dict]:
    """Set the process up for `script` as python would, for the block's duration; yields the
    namespace to run the code in (`namespace`'s names, in the `__main__` module's own dict when
    the script has a file). The source is put into linecache under the code's filename, so
    tracebacks and anything else reading the script's lines read what runs (the editor's text,
    which may differ from the file on disk), also for "<script>"."""
    filename = script.code_filename
    cached = linecache.cache.get(filename)
    lines = source.splitlines(keepends=True)
    linecache.cache[filename] = (len(source), None, lines, filename)  # mtime None: kept
    if script.path is None:
        try:
            yield namespace
        finally:
            _put_back_cache(filename, cached)
        return
    module = types.ModuleType("__main__")
    module.__dict__.update(namespace)
    module.__dict__.update(__file__=filename, __cached__=None, __spec__=None)
    saved_argv, saved_path = list(sys.argv), list(sys.path)
    saved_main = sys.modules.get("__main__")
    modules_before = set(sys.modules)
    sys.argv[:] = script.argv
    sys.path.insert(0, script.folder)
    sys.modules["__main__"] = module
    try:
        yield module.__dict__
    finally:
        sys.argv[:] = saved_argv
        sys.path[:] = saved_path
        if saved_main is not None:
            sys.modules["__main__"] = saved_main
        else:
            sys.modules.pop("__main__", None)
        _forget_modules_from(script.folder, set(sys.modules) - modules_before)
        _put_back_cache(filename, cached)


def _put_back_cache(filename: str, cached) -> None:
    if cached is None:
        linecache.cache.pop(filename, None)
    else:
        linecache.cache[filename] = cached


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _module_files(module) -> list[str]:
    files = [getattr(module, "__file__", None)]
    files += list(getattr(module, "__path__", None) or [])  # packages, namespace packages too
    return [os.path.realpath(f) for f in files if isinstance(f, str)]


def _forget_modules_from(folder: str, new_names: set[str]) -> None:
    """Drop the modules the run imported from the script's folder — never an installed package
    or the standard library, even where the folder holds them (~/project/.venv)."""
    for name in new_names:
        module = sys.modules.get(name)
        files = _module_files(module) if module is not None else []
        if any(_inside(f, folder) and code_owner(f) == "user" for f in files):
            del sys.modules[name]
