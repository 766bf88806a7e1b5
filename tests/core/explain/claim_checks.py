"""The registry of triggers behind test_every_explanation_is_true.py.

A trigger runs real failing torch code, explains the error as the app does, and checks the
explanation's own claims against torch: the fix it proposes runs and gives what it says. It
returns a Case; the test then checks what every explanation must satisfy (it came from the
rule the trigger is registered for, torch's message is kept verbatim, every size list and
dtype it names is a real one of the tensors involved).

Triggers are keyed by rule id (tensorviz.core.explain.errors.RULES) or, for explanations the
app writes itself (ExplainedError built outside the rule book), by their kind.

Every trigger runs in English and in Chinese (the explanation is written in the language in
force when the error happens): a claim a trigger reads in the words of the text is written in
both languages with `said(english, chinese)`; sizes, dtypes and code are found in either.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from dataclasses import dataclass, field

import pytest
import torch

from tensorviz.core import translation
from tensorviz.core.explain.errors import ExplainedError, explain_error

LANGUAGES = (translation.ENGLISH, translation.CHINESE)


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


@contextmanager
def speaking(language: str):
    """Explanations are written in `language` meanwhile (English again afterwards)."""
    translation.set_language(language)
    try:
        yield
    finally:
        translation.set_language(translation.ENGLISH)


def in_english() -> bool:
    return translation.current_language() == translation.ENGLISH


def said(english: str, chinese: str) -> str:
    """The words a claim is made in, in the language the explanation was written in."""
    return english if in_english() else chinese


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


# `code gives [..]`, `code (gives [..])`; `code 得到 [..]`, `code（得到 [..]）`
GIVES = r"\s?[(（]?(?:gives|得到) (\[[-\d, ]*\])"


def fix_gives(case: Case, code: str, scope: dict | None = None) -> torch.Tensor:
    """The fix says `code gives [..]` (or `code (gives [..])`): run it and compare the shape."""
    gives = re.search(re.escape(code) + GIVES, case.explained.fix)
    assert gives, (code, case.explained.fix)
    result = fix_runs(case, code, scope)
    assert str(list(result.shape)) == gives[1]
    return result


# A size list as the explanations print it ([2, 3], []); not code such as x[0], stride[1] or
# torch.tensor([1, 2]). ASCII: a Chinese character or full-width bracket next to a size list
# must not hide it (in Unicode, 为 is a word character and 为[2] no word boundary).
SIZE_LIST = re.compile(r"(?<![\w\])(])\[(-?\d+(?:, -?\d+)*)?\]", re.ASCII)
DTYPE_NAME = re.compile(
    r"\b(?:float|int|uint|complex)(?:8|16|32|64|128)\b|\bbfloat16\b|\bbool\b", re.ASCII
)
CJK = re.compile(r"[\u4e00-\u9fff]")
PLAIN_WORD = re.compile(r"[A-Za-z]+[,.;:!?]?")


def named_sizes(text: str) -> set[tuple[int, ...]]:
    return {tuple(int(n) for n in (m[1] or "").split(", ") if n) for m in SIZE_LIST.finditer(text)}


def named_dtypes(text: str) -> set[str]:
    return set(DTYPE_NAME.findall(text))


def short(dtype: torch.dtype) -> str:
    return str(dtype).removeprefix("torch.")


def english_left(text: str) -> list[str]:
    """Runs of three or more plain English words (not code, names or numbers) in `text`."""
    runs, run = [], []
    for token in [*text.split(), ""]:
        if PLAIN_WORD.fullmatch(token):
            run.append(token)
            continue
        if len(run) >= 3:
            runs.append(" ".join(run))
        run = []
    return runs


def reads_in_chinese(explained: ExplainedError) -> None:
    """Title, explanation and fix are written in Chinese (code and torch's names may stay)."""
    for part in (explained.title, explained.explanation, explained.fix):
        assert CJK.search(part), f"no Chinese in {part!r}"
        assert not english_left(part), f"English left in {part!r}: {english_left(part)}"
