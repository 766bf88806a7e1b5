"""Turn a torch exception into something a learner can act on.

Errors are data (ARCHITECTURE rule 7): the UI and the CLI show an ``ExplainedError`` built here
from torch's own message (kept verbatim) plus the tensors the user passed in. Classification
matches torch's real message text; the tensors supply the actual sizes, strides, dtypes and
devices. Explaining must never fail, so any problem falls back to kind "unknown".

Every text is written in the language in force when the error is explained (gettext, catalogue
tensorviz-explain); torch's message stays as torch wrote it.

The rules live in one module per family (devices, autograd, shapes, matrix products, usage,
dtypes); RULES holds them in the order they are tried, and every ExplainedError names the rule
that wrote it, so tests can hold each rule to a real trigger.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import torch

from tensorviz.core.explain.autograd_errors import AUTOGRAD_RULES
from tensorviz.core.explain.device_errors import DEVICE_RULES, explain_out_of_memory
from tensorviz.core.explain.dtype_errors import DTYPE_RULES
from tensorviz.core.explain.error_origin import NUMPY, PANDAS, PYTHON, TORCH, USER, error_origin
from tensorviz.core.explain.library_errors import LIBRARY_RULES
from tensorviz.core.explain.matmul_errors import MATMUL_RULES
from tensorviz.core.explain.rules import ErrorParts, Rule
from tensorviz.core.explain.shape_errors import SHAPE_RULES
from tensorviz.core.explain.usage_errors import USAGE_RULES
from tensorviz.core.translation import N_, _


@dataclass(frozen=True)
class ExplainedError:
    kind: str
    title: str
    torch_message: str  # the message as its author wrote it (torch's, or `said_by`'s)
    explanation: str
    fix: str
    rule: str = ""  # the id of the rule that wrote it ("" for the app's own findings)
    said_by: str = TORCH  # whose message it is: error_origin's verdict (numpy, pandas, user, …)

    @property
    def speaker(self) -> str:
        """Whose message, in words: torch, NumPy, pandas, Python, your code (or a package)."""
        return speaker(self.said_by)

    def text(self) -> str:
        """Everything as plain text, for the CLI and the clipboard (no "torch says" for the
        app's own findings, which have no torch message), headed in the language in force."""
        parts = {"title": self.title, "explanation": self.explanation, "fix": self.fix}
        if not self.torch_message:
            return _("{title}\n\nWhy: {explanation}\n\nFix: {fix}").format(**parts)
        if self.said_by == TORCH:
            return _("{title}\n\ntorch says: {message}\n\nWhy: {explanation}\n\nFix: {fix}").format(
                message=self.torch_message, **parts
            )
        parts.update(message=self.torch_message, speaker=self.speaker)
        if not self.fix:
            return _("{title}\n\n{speaker} says: {message}\n\nWhy: {explanation}").format(**parts)
        return _("{title}\n\n{speaker} says: {message}\n\nWhy: {explanation}\n\nFix: {fix}").format(
            **parts
        )


def speaker(library: str) -> str:
    """A library's name as it writes it itself; "your code" for the user's own raise."""
    names = {TORCH: "torch", NUMPY: "NumPy", PANDAS: "pandas", PYTHON: "Python"}
    if library == USER:
        return _("your code")
    return names.get(library, library)


# In English here; explain_error gives them in the language in force (_(UNKNOWN_TITLE) ...).
UNKNOWN_TITLE = N_("torch refused this operation")
UNKNOWN_EXPLANATION = N_("torch refused this operation; its message above says why.")
UNKNOWN_FIX = N_(
    "Read the argument torch names in its message and compare the shapes, dtypes and devices "
    "of the inputs; simplify the expression step by step until the failing part is isolated."
)

# The dtype rules come last among torch's: their catch-all matches any message that mentions a
# dtype. NumPy's and pandas' rules are tried only for the errors those libraries raised.
RULES: tuple[Rule, ...] = (
    *DEVICE_RULES,
    *AUTOGRAD_RULES,
    *SHAPE_RULES,
    *MATMUL_RULES,
    *USAGE_RULES,
    *DTYPE_RULES,
    *LIBRARY_RULES,
)
_COMPILED = [(re.compile(pattern, re.DOTALL), rule) for rule in RULES for pattern in rule.patterns]


def _message_of(error: BaseException) -> str:
    try:
        return str(error)
    except Exception:  # noqa: BLE001 — a broken __str__ must not break the explainer
        return repr(error)


def explain_error(
    error: BaseException,
    op: str | None = None,
    tensors: Sequence[torch.Tensor] = (),
    params: Mapping[str, object] | None = None,
    names: Sequence[str] = (),
) -> ExplainedError:
    """Classify ``error`` from torch's message and explain it with the real inputs. Never raises.

    Only an error torch raised gets torch's rules: one NumPy, pandas, Python or the user's own
    `raise` raised (error_origin.py decides, by the code that raised it) gets their rules or is
    said to be theirs, with its message as it is (kind "not_torch").

    ``names`` are the workspace names of ``tensors``, so a fix can say ``x_t.reshape(-1)``;
    ``params["input_exprs"]`` may say how each input was written (``K.T``)."""
    message = _message_of(error)
    origin = error_origin(error)
    library = origin.library if origin is not None else TORCH  # no verdict: as it always was
    try:
        inputs = [t for t in tensors if isinstance(t, torch.Tensor)]
        options = {**dict(params or {}), "input_names": tuple(names)}
        if origin is not None:
            options.update(
                operation=origin.operation, source=origin.source, receiver=origin.receiver
            )
        if isinstance(error, torch.OutOfMemoryError):
            whole_message = re.search(r".*", message, re.DOTALL)
            parts = explain_out_of_memory(whole_message, op, inputs, options)
            return _build(message, parts, "out_of_memory", TORCH)
        for pattern, rule in _COMPILED:
            if rule.library != library:
                continue
            match = pattern.search(message)
            if match:
                parts = rule.explainer(match, op, inputs, options)
                if parts is not None:
                    return _build(message, parts, rule.id, library)
    except Exception:  # noqa: BLE001 — explaining is best effort; torch's message always survives
        pass
    if library != TORCH:
        return _not_torchs(error, message, library)
    return ExplainedError(
        "unknown", _(UNKNOWN_TITLE), message, _(UNKNOWN_EXPLANATION), _(UNKNOWN_FIX)
    )


def _build(message: str, parts: ErrorParts, rule: str, library: str) -> ExplainedError:
    kind, title, explanation, fix = parts
    return ExplainedError(kind, title, message, explanation, fix, rule, library)


def _not_torchs(error: BaseException, message: str, library: str) -> ExplainedError:
    """An error torch did not raise and no rule knows: whose it is, and its message as it is."""
    kind = type(error).__name__
    if library == USER:
        title = _("Your code raised {kind}").format(kind=kind)
        why = _(
            "A raise statement of your own code raised it, with this message; torch did not "
            "refuse anything."
        )
    elif library == PYTHON:
        title = _("Python raised {kind}").format(kind=kind)
        why = _("Python itself raised it, not torch: its message says what it could not do.")
    else:
        title = _("{library} raised {kind}").format(library=speaker(library), kind=kind)
        why = _("{library} raised it, not torch: its message says what {library} needs.").format(
            library=speaker(library)
        )
    return ExplainedError("not_torch", title, message, why, "", "", library)
