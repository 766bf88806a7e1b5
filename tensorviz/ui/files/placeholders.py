"""Qt's %1 %2 … placeholders of a translated text filled in one pass, so a value that happens to
hold "%2" (a file name) is never filled again: `filled(self.tr("%1 of %2"), done, total)`."""

from __future__ import annotations

import re

_PLACEHOLDER = re.compile(r"%(\d)")


def filled(text: str, *values) -> str:
    def value(match: re.Match) -> str:
        index = int(match[1]) - 1
        return str(values[index]) if 0 <= index < len(values) else match[0]

    return _PLACEHOLDER.sub(value, text)
