"""Every explanation the app can give, checked against torch.

Each rule of the rule book (tensorviz.core.explain.errors.RULES) and each explanation the app
writes itself (an ExplainedError built anywhere in tensorviz) has at least one registered
trigger (claim_checks): real failing code whose explanation's claims are checked against torch.
A rule, a pattern of a rule, or a kind of explanation without a trigger fails this test.

Every trigger runs in English and in Chinese: the claims hold in both, torch's message stays
verbatim, and the rule book's own texts (every rule, and the fallback) read in Chinese.
"""

import ast
import functools
import re
from pathlib import Path

import pytest
import torch
import triggers_elsewhere  # noqa: F401 — registers its triggers
import triggers_libraries  # noqa: F401
import triggers_runtime  # noqa: F401
import triggers_shapes  # noqa: F401
import triggers_usage  # noqa: F401
from claim_checks import (
    ELSEWHERE_TRIGGERS,
    LANGUAGES,
    RULE_TRIGGERS,
    Case,
    Trigger,
    named_dtypes,
    named_sizes,
    reads_in_chinese,
    say,
    short,
    speaking,
)

import tensorviz
from tensorviz.core.explain.errors import RULES
from tensorviz.core.translation import CHINESE, ENGLISH

CUDA = torch.cuda.is_available()
ALL_TRIGGERS = RULE_TRIGGERS + ELSEWHERE_TRIGGERS


@functools.cache
def outcome(trigger: Trigger, language: str = ENGLISH) -> Case:
    with speaking(language):
        return trigger.run()


def _check_common_claims(case: Case) -> None:
    text = say(case)
    unknown = named_sizes(text) - case.sizes
    assert not unknown, f"sizes named that are no real shape or stride here: {unknown}\n{text}"
    dtypes = named_dtypes(text) - {short(d) for d in case.dtypes}
    assert not dtypes, f"dtypes named that are not involved: {dtypes}\n{text}"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("trigger", RULE_TRIGGERS, ids=lambda t: t.name)
def test_every_rule_explains_its_trigger_truly(trigger, language):
    if trigger.needs_cuda and not CUDA:
        pytest.skip("needs a CUDA device to raise torch's real message")
    case = outcome(trigger, language)
    assert case.explained.rule == trigger.key, case.explained
    assert case.explained.torch_message == case.message  # torch's English, in every language
    _check_common_claims(case)
    if language == CHINESE:
        reads_in_chinese(case.explained)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("trigger", ELSEWHERE_TRIGGERS, ids=lambda t: t.name)
def test_every_explanation_of_the_apps_own_is_true(trigger, language):
    case = outcome(trigger, language)
    assert case.explained.kind == trigger.key
    assert case.explained.title and (case.explained.explanation or case.explained.kind == "exit")
    _check_common_claims(case)
    if language == CHINESE and trigger.key == "unknown":  # the rule book's fallback
        reads_in_chinese(case.explained)


def test_every_rule_and_every_pattern_has_a_real_trigger():
    keys = {t.key for t in RULE_TRIGGERS}
    missing = [rule.id for rule in RULES if rule.id not in keys]
    assert not missing, f"rules without a claim-checking trigger: {missing}"
    assert keys <= {rule.id for rule in RULES}, "triggers for rules that do not exist"
    uncovered = []
    for rule in RULES:
        mine = [t for t in RULE_TRIGGERS if t.key == rule.id]
        here = [outcome(t).message for t in mine if not t.needs_cuda or CUDA]
        for pattern in rule.patterns:
            if any(re.search(pattern, message, re.DOTALL) for message in here):
                continue
            if not CUDA and any(t.needs_cuda for t in mine):
                continue  # its trigger raises torch's real message on a CUDA machine
            uncovered.append((rule.id, pattern))
    assert not uncovered, f"patterns no trigger's real torch message reaches: {uncovered}"


def _kinds_built_outside_the_rule_book() -> dict[str, list[str]]:
    """kind → files, for every ExplainedError(...) written in tensorviz."""
    root = Path(tensorviz.__file__).parent
    kinds: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name != "ExplainedError":
                continue
            kind = (
                node.args[0]
                if node.args
                else next((k.value for k in node.keywords if k.arg == "kind"), None)
            )
            where = str(path.relative_to(root))
            if where == "core/explain/errors.py" and not isinstance(kind, ast.Constant):
                continue  # the dispatcher: its kinds come from the rules checked above
            assert isinstance(kind, ast.Constant), (
                f"{where}: an ExplainedError kind must be literal"
            )
            kinds.setdefault(kind.value, []).append(where)
    return kinds


def test_every_explanation_written_outside_the_rule_book_has_a_trigger():
    kinds = _kinds_built_outside_the_rule_book()
    assert kinds  # the scan finds them (the Workbench's bad_parameter at least)
    checked = {t.key for t in ELSEWHERE_TRIGGERS}
    missing = {kind: files for kind, files in kinds.items() if kind not in checked}
    assert not missing, f"explanations without a claim-checking trigger: {missing}"
