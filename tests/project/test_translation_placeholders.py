"""Every Chinese core text keeps the placeholders of its English template: `.format()` fills
them after translation, so one that is lost drops a size or a name from the sentence, and one
that is misspelt raises (and the explainer would fall back to "torch refused this operation")."""

import re
from pathlib import Path

from babel.messages.pofile import read_po

PO_DIR = Path(__file__).resolve().parents[2] / "resources" / "locale" / "zh_CN" / "LC_MESSAGES"
PLACEHOLDER = re.compile(r"(?<!\{)\{(\w*)\}(?!\})")


def _placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def test_every_translation_keeps_the_placeholders_of_its_template():
    problems, checked = [], 0
    for po in sorted(PO_DIR.glob("tensorviz-*.po")):
        with po.open("rb") as stream:
            catalog = read_po(stream)
        for message in catalog:
            if not message.id or "python-brace-format" not in message.flags:
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            wanted = _placeholders(ids[-1])
            for string in filter(None, strings):
                checked += 1
                if _placeholders(string) != wanted:
                    problems.append(f"{po.name}: {ids[0]!r} → {string!r}")
    assert checked, "no translated template found"
    assert problems == []


def test_the_check_sees_a_lost_placeholder():
    assert _placeholders("{count} 个元素，形状 {shape}") == {"count", "shape"}
    assert _placeholders("{{literal}} {count}") == {"count"}
