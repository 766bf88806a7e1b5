"""The example scripts shipped in resources/examples, one per section of the concept catalogue.

Each file starts with machine-readable header lines: `# title: …` (the menu entry, in English:
the catalogue translates it, see TITLES) and `# promises: a, b, c` (the tensors it leaves in the
workspace once run; a test holds it to that), then its comments in English and Chinese and its
imports, as the tutorials write them: every example also runs as `python FILE.py`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from tensorviz.core.translation import _
from tensorviz.resource_files import resource_path


def marked_titles() -> tuple[str, ...]:
    """The files' `# title:` lines, marked for the catalogue (pybabel reads code, not the
    examples' comments); a test holds this list to the files. Translated when called."""
    return (
        _("Creating tensors"),
        _("Views, copies and strides"),
        _("Broadcasting"),
        _("Reductions"),
        _("The NumPy bridge"),
        _("Autograd"),
        _("The training loop (linear regression)"),
        _("The errors learners hit"),
        _("Devices, with or without a GPU"),
    )


@dataclass(frozen=True)
class ScriptExample:
    key: str  # the file's stem, e.g. "06_autograd"
    english_title: str  # as the file's `# title:` line writes it (the catalogue's msgid)
    promises: tuple[str, ...]
    source: str

    @property
    def title(self) -> str:
        """The menu entry in the language in force."""
        return _(self.english_title)


def _header(source: str, field: str) -> str:
    prefix = f"# {field}:"
    for line in source.splitlines():
        if line.startswith(prefix):
            return line[len(prefix) :].strip()
    return ""


@cache
def script_examples() -> tuple[ScriptExample, ...]:
    examples = []
    for path in sorted(resource_path("examples").glob("*.py")):
        source = path.read_text(encoding="utf-8")
        promises = tuple(n.strip() for n in _header(source, "promises").split(",") if n.strip())
        title = _header(source, "title") or path.stem
        examples.append(ScriptExample(path.stem, title, promises, source))
    return tuple(examples)


def example_by_key(key: str) -> ScriptExample:
    return next(e for e in script_examples() if e.key == key)
