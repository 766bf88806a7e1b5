"""What a Workbench action hands back: a checked action in two halves (PreparedAction), its
outcome, and its refusal (ActionError carrying an ExplainedError). Shared by the creating,
operating and writing halves of workbench_actions."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field

import torch

from tensorviz.core.explain.errors import ExplainedError
from tensorviz.core.tensors.identity import Verdict
from tensorviz.core.tensors.index_expressions import IndexSyntaxError, ParsedIndex
from tensorviz.core.translation import _

# Work above these runs off the GUI thread (a few tens of milliseconds on two cores).
HEAVY_BYTES = 16 * 2**20
HEAVY_MULTIPLY_ADDS = 50_000_000


class ActionError(Exception):
    def __init__(self, explained: ExplainedError) -> None:
        super().__init__(explained.title)
        self.explained = explained


@dataclass(frozen=True)
class ActionOutcome:
    code: str
    created: tuple[str, ...] = ()
    verdicts: dict[str, Verdict] = field(default_factory=dict)
    changed: tuple[str, ...] = ()  # entries whose memory an in-place write reached
    notes: tuple[str, ...] = ()
    # Set when nothing was done yet: the action needs the user's yes first (a write that could
    # not be checked beforehand and cannot be undone). `proceed()` does it after a yes.
    question: str = ""
    proceed: Callable[[], ActionOutcome] | None = None


def input_problem(message: str) -> ActionError:
    """A problem found before torch was called: there is no torch message to show."""
    return ActionError(
        ExplainedError(
            kind="bad_parameter",
            title=_("Check the input"),
            torch_message="",
            explanation=message,
            fix=_("Correct that value and try again; nothing was changed."),
        )
    )


@dataclass(frozen=True)
class PreparedAction:
    """A checked action. `compute()` only runs torch (no workspace change), so it may run off the
    GUI thread when `heavy`; `finish(result)` records the result in the workspace. Both raise
    ActionError."""

    code: str
    heavy: bool
    compute: Callable[[], object]
    finish: Callable[[object], ActionOutcome]

    def run(self) -> ActionOutcome:
        return self.finish(self.compute())


def computed_keys(values: Mapping[str, object]) -> dict[str, object]:
    """The parameter values with every index key computed on the real tensors (masks are only
    sized when an action is prepared; this is the expensive part, done by `compute`)."""
    try:
        return {k: v.key() if isinstance(v, ParsedIndex) else v for k, v in values.items()}
    except IndexSyntaxError as error:
        raise input_problem(str(error)) from None


def meta_keys(values: Mapping[str, object]) -> dict[str, object]:
    """The parameter values with every index key as its meta stand-in (shapes, no data)."""
    return {k: v.meta_key if isinstance(v, ParsedIndex) else v for k, v in values.items()}


def mask_bytes(values: Mapping[str, object]) -> int:
    """Peak memory the index masks among the values take to compute."""
    return sum(v.mask_bytes for v in values.values() if isinstance(v, ParsedIndex))


def torch_warning_note(message) -> str:
    """A warning torch gave while it ran: torch's own words, introduced in ours."""
    return _("torch warns: {message}").format(message=message)


@contextmanager
def torch_warns_every_time():
    """torch warns about some things only once per process; a learner should see it each time."""
    before = torch.is_warn_always_enabled()
    torch.set_warn_always(True)
    try:
        yield
    finally:
        torch.set_warn_always(before)
