"""Checks on paths a user asks to open (command line, File → Open, Recent files, drag and drop).

A path that cannot be opened gets one clear sentence, never a traceback. Reading the file's
contents belongs to the Files area; this only decides whether there is a readable file at all.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from tensorviz.core.translation import _


@dataclass(frozen=True)
class PathProblem:
    path: str
    reason: str

    def message(self) -> str:
        return _("Cannot open {path}: {reason}").format(path=self.path, reason=self.reason)


def path_problem(path: str | os.PathLike, folders: bool = False) -> PathProblem | None:
    """None when `path` names a readable regular file (or, with `folders`, a readable folder:
    a checkpoint folder), else what is wrong with it."""
    text = os.fspath(path)
    if not text.strip():
        return PathProblem(text, _("the path is empty."))
    p = Path(text).expanduser()
    if not p.exists():
        return PathProblem(text, _("no such file."))
    if p.is_dir() and not folders:
        return PathProblem(text, _("it is a folder, not a file."))
    if p.is_dir():
        if not os.access(p, os.R_OK | os.X_OK):
            return PathProblem(text, _("permission denied (the folder is not readable)."))
        return None
    if not p.is_file():
        return PathProblem(text, _("it is not a regular file."))
    if not os.access(p, os.R_OK):
        return PathProblem(text, _("permission denied (the file is not readable)."))
    return None


def split_openable(paths: list[str], folders: bool = False) -> tuple[list[str], list[PathProblem]]:
    """Separate paths into absolute openable ones (order kept, duplicates dropped) and problems."""
    good: list[str] = []
    problems: list[PathProblem] = []
    for path in paths:
        problem = path_problem(path, folders)
        if problem:
            problems.append(problem)
            continue
        resolved = str(Path(path).expanduser().resolve())
        if resolved not in good:
            good.append(resolved)
    return good, problems
