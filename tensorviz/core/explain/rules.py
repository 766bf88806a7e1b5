"""The rule book of explanations: each rule has an id, the torch messages it answers (regular
expressions on torch's own text) and the explainer that writes the explanation.

Every text is written for translation (tensorviz.core.translation): one `_()` template per
sentence, filled with `.format()` after translating, so a translator can put the sizes, code and
dtypes where the sentence needs them; torch's own message, code, shapes and dtypes stay verbatim.
Sentences and list items are joined with the helpers below, which follow the language's
punctuation (no space after a Chinese full stop, 、 between Chinese list items).

Most rules explain torch's errors; library_errors.py holds those of NumPy and pandas, tried only
for errors those libraries raised (error_origin.py). An explainer gets the regex match on the
message plus what the caller knows (op name, input tensors, op parameters; for a library's
error, the operation of the user's code that failed) and returns ``(kind, title, explanation,
fix)``, or None when it cannot say anything better than the rules after it. The id is the
explainer's name without ``explain_``: the dispatcher stamps it on the ExplainedError, and the
claim-checking test (tests/core/explain/test_every_explanation_is_true.py) holds one real
trigger per rule id.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import torch

from tensorviz.core.translation import pgettext

ErrorParts = tuple[str, str, str, str]
Explainer = Callable[
    [re.Match, str | None, Sequence[torch.Tensor], Mapping[str, object]], ErrorParts | None
]


@dataclass(frozen=True)
class Rule:
    id: str
    patterns: tuple[str, ...]
    explainer: Explainer
    library: str = "torch"  # whose errors it explains (error_origin.py decides whose one is)


def rule_into(rules: list[Rule], library: str = "torch"):
    """A decorator `@rule(pattern, ...)` that appends the explainer to `rules` (definition
    order: the first rule that matches and answers wins), for errors `library` raised."""

    def rule(*patterns: str) -> Callable[[Explainer], Explainer]:
        def register(explainer: Explainer) -> Explainer:
            rule_id = explainer.__name__.removeprefix("explain_")
            rules.append(Rule(rule_id, patterns, explainer, library))
            return explainer

        return register

    return rule


def format_shape(shape: Sequence[int]) -> str:
    """``[2, 3, 4]``: the way torch prints sizes in its own messages."""
    return "[" + ", ".join(str(int(size)) for size in shape) + "]"


def short_dtype(dtype: torch.dtype) -> str:
    return str(dtype).removeprefix("torch.")


def first_name(params: Mapping[str, object], default: str = "x") -> str:
    """The workspace (or script) name of the first input, for a fix written in its words."""
    names = params.get("input_names") or ()
    return str(names[0]) if names else default


# A sentence that ends in full-width punctuation (Chinese) is followed by no space.
_FULL_WIDTH_ENDINGS = ("。", "；", "：", "！", "？", "）", "」")


def sentences(*parts: str) -> str:
    """Sentences (each one whole, translated on its own) in reading order; empty ones skipped."""
    text = ""
    for part in filter(None, parts):
        if text and not text.endswith(_FULL_WIDTH_ENDINGS):
            text += " "
        text += part
    return text


def listing(items) -> str:
    """[2, 3], [4]: items of a list (、 in Chinese)."""
    return pgettext("between the items of a list", ", ").join(items)


def clauses(items) -> str:
    """Clauses of one sentence, each complete in itself (； in Chinese)."""
    return pgettext("between the clauses of a sentence", "; ").join(items)


def both(items) -> str:
    """a and b; a, b and c (a、b 和 c)."""
    items = list(items)
    last = pgettext("between the last two items of a list", " and ")
    if len(items) < 3:
        return _joined(last, items)
    return _joined(last, [listing(items[:-1]), items[-1]])


def either(items) -> str:
    """a or b (a 或 b)."""
    return _joined(pgettext("between alternatives", " or "), items)


def _joined(word: str, items) -> str:
    """items joined by a spaced word (" 或 "), without the space after full-width punctuation
    ("a（得到 [3]）或 b")."""
    text = ""
    for item in items:
        if text:
            text += word.lstrip() if text.endswith(_FULL_WIDTH_ENDINGS) else word
        text += item
    return text
