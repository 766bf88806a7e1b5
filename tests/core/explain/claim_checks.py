"""The registry of triggers behind test_every_explanation_is_true.py.

A trigger runs real failing torch code, explains the error as the app does, and checks the
explanation's own claims against torch: the fix it proposes runs and gives what it says. It
returns a Case; the test then checks what every explanation must satisfy (it came from the
rule the trigger is registered for, torch's message is kept verbatim, every size list and
dtype it names is a real one of the tensors involved).

Triggers are keyed by rule id (tensorviz.core.explain.errors.RULES) or, for explanations the
app writes itself (ExplainedError built outside the rule book), by their kind.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import pytest
import torch

from tensorviz.core.explain.errors import ExplainedError, explain_error


@dataclass
class Case:
    explained: ExplainedError
    message: str  # torch's message ("" for the app's own findings)
    sizes: set[tuple[int, ...]] = field(default_factory=set)  # shapes/strides it may name
    dtypes: set[torch.dtype] = field(default_factory=set)  # dtypes it may name


@dataclass(frozen=True)
class Trigger:
    key: str  # rule id or ExplainedError kind
    run: Callable[[], Case]
    needs_cuda: bool = False

    @property
    def name(self) -> str:
        return f"{self.key}:{self.run.__name__}"


RULE_TRIGGERS: list[Trigger] = []
ELSEWHERE_TRIGGERS: list[Trigger] = []


def _register(target: list[Trigger], key: str, needs_cuda: bool):
    def register(run: Callable[[], Case]) -> Callable[[], Case]:
        target.append(Trigger(key, run, needs_cuda))
        return run

    return register


def trigger(rule_id: str, needs_cuda: bool = False):
    """Register a claim check for the rule `rule_id`."""
    return _register(RULE_TRIGGERS, rule_id, needs_cuda)


def elsewhere(kind: str):
    """Register a claim check for an explanation the app writes itself, by its kind."""
    return _register(ELSEWHERE_TRIGGERS, kind, False)


def raised(action) -> BaseException:
    with pytest.raises(Exception) as caught:
        action()
    return caught.value


def sizes_of(tensors: Iterable[torch.Tensor]) -> set[tuple[int, ...]]:
    found = set()
    for t in tensors:
        found.add(tuple(t.shape))
        if t.layout == torch.strided:
            found.add(tuple(t.stride()))
    return found


def explained_by(
    action,
    op=None,
    tensors=(),
    params=None,
    names=(),
    sizes: Iterable[Iterable[int]] = (),
    dtypes: Iterable[torch.dtype] = (),
) -> Case:
    """Run `action`, which must raise, and explain its error as the app does."""
    error = raised(action)
    explained = explain_error(error, op, tensors, params, names)
    return Case(
        explained,
        str(error),
        sizes_of(tensors) | {tuple(s) for s in sizes},
        {t.dtype for t in tensors} | set(dtypes),
    )


def say(case: Case) -> str:
    e = case.explained
    return f"{e.title}\n{e.explanation}\n{e.fix}"


def fix_runs(case: Case, code: str, scope: dict | None = None):
    """`code` is written in the fix, and it runs: an expression's value is returned, statements
    return the namespace they ran in."""
    assert code in case.explained.fix, (code, case.explained.fix)
    namespace = {"torch": torch, **(scope or {})}
    try:
        compiled = compile(code, "<fix>", "eval")
    except SyntaxError:
        exec(compile(code, "<fix>", "exec"), namespace)  # noqa: S102 — the fix under test
        return namespace
    return eval(compiled, namespace)  # noqa: S307 — the fix under test


def fix_gives(case: Case, code: str, scope: dict | None = None) -> torch.Tensor:
    """The fix says `code gives [..]` (or `code (gives [..])`): run it and compare the shape."""
    said = re.search(re.escape(code) + r" \(?gives (\[[-\d, ]*\])", case.explained.fix)
    assert said, (code, case.explained.fix)
    result = fix_runs(case, code, scope)
    assert str(list(result.shape)) == said[1]
    return result


# A size list as the explanations print it ([2, 3], []); not code such as x[0], stride[1] or
# torch.tensor([1, 2]).
SIZE_LIST = re.compile(r"(?<![\w\])(])\[(-?\d+(?:, -?\d+)*)?\]")
DTYPE_NAME = re.compile(r"\b(?:float|int|uint|complex)(?:8|16|32|64|128)\b|\bbfloat16\b|\bbool\b")


def named_sizes(text: str) -> set[tuple[int, ...]]:
    return {tuple(int(n) for n in (m[1] or "").split(", ") if n) for m in SIZE_LIST.finditer(text)}


def named_dtypes(text: str) -> set[str]:
    return set(DTYPE_NAME.findall(text))


def short(dtype: torch.dtype) -> str:
    return str(dtype).removeprefix("torch.")
