"""Failures of a script that are Python's, not torch's: a recursion too deep, an interrupt,
input() without a keyboard. Each gets its own title, explanation and fix, so neither the JSON
of `tensorviz run` nor the Script area calls them "torch refused this operation"."""

from __future__ import annotations

import sys

from tensorviz.core.explain.errors import ExplainedError
from tensorviz.core.translation import _


class ScriptInputError(RuntimeError):
    """input() in a script: there is no keyboard to read from."""


def python_failure(error: BaseException) -> ExplainedError | None:
    """The explanation of a failure Python raised on its own, or None for any other error."""
    if isinstance(error, RecursionError):
        return ExplainedError(
            kind="recursion",
            title=_("RecursionError: the calls nested deeper than Python allows"),
            torch_message="",
            explanation=_(
                "A function kept calling itself (or functions kept calling each other) until "
                "Python's limit of {limit} nested calls stopped it (sys.getrecursionlimit()). "
                "The traceback folds the repeated lines, as Python does."
            ).format(limit=f"{sys.getrecursionlimit():,}"),
            fix=_(
                "Give the recursion a case that returns without calling again, or write it as a "
                "loop. Raising the limit with sys.setrecursionlimit only postpones the error."
            ),
        )
    if isinstance(error, KeyboardInterrupt):
        return ExplainedError(
            kind="interrupted",
            title=_("KeyboardInterrupt: the run was interrupted"),
            torch_message="",
            explanation=_(
                "KeyboardInterrupt is what Ctrl+C raises in a terminal; here the script raised "
                "it (or it arrived while the script ran), so it ended at this line."
            ),
            fix=_(
                "Run it again. To end a run on purpose, use Stop (Esc) in the Script area, or "
                "--timeout SECONDS with tensorviz run."
            ),
        )
    if isinstance(error, ScriptInputError):
        return ExplainedError(
            kind="no_input",
            title=_("input() has no keyboard to read from here"),
            torch_message="",
            explanation=str(error),
            fix=_("Write the value into the script (n = 10), or read it from a file."),
        )
    return None
