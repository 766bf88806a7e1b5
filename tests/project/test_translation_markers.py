"""A module that marks its texts with `_()` (core's gettext) must never bind `_` to anything
else: `for _ in ...` or `path, _ = ...` would silently replace the translation function, and
every later text of that module would raise or stay English."""

import ast
from pathlib import Path

import tensorviz

ROOT = Path(tensorviz.__file__).parent


def _imports_translation(tree: ast.Module) -> bool:
    return any(
        isinstance(node, ast.ImportFrom)
        and node.module == "tensorviz.core.translation"
        and any(alias.name == "_" for alias in node.names)
        for node in ast.walk(tree)
    )


def _rebinds_underscore(tree: ast.Module) -> list[int]:
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == "_" and isinstance(node.ctx, ast.Store):
            lines.append(node.lineno)
        elif isinstance(node, ast.arg) and node.arg == "_":
            lines.append(node.lineno)
    return lines


def test_no_module_that_translates_rebinds_underscore():
    problems, translating = [], 0
    for path in sorted(ROOT.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if _imports_translation(tree):
            translating += 1
            problems += [f"{path.relative_to(ROOT)}:{n}" for n in _rebinds_underscore(tree)]
    assert translating, "no module marks texts with _() yet"
    assert problems == [], "`_` is rebound (use a named throwaway, e.g. `_unused`)"


def test_the_check_sees_a_rebinding():
    tree = ast.parse("from tensorviz.core.translation import _\nfor _ in range(3):\n    pass\n")
    assert _imports_translation(tree) and _rebinds_underscore(tree) == [2]
