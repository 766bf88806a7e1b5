"""Qt's %1, %2 … placeholders filled into a translated text, in one pass (a value that holds
"%2" itself stays as it is), the way QString::arg does in C++."""

from __future__ import annotations

import re

_PLACEHOLDER = re.compile(r"%(\d)")


def arg(template: str, *values: object) -> str:
    """`arg(self.tr("view of %1 — %2"), "x", ...)`: %n becomes the n-th value."""

    def value(match: re.Match) -> str:
        position = int(match[1]) - 1
        return str(values[position]) if 0 <= position < len(values) else match[0]

    return _PLACEHOLDER.sub(value, template)
