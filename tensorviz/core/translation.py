"""The language of core's texts (explanations, notes, file and training messages, CLI output),
through Python's standard gettext, so the CLI and the GUI speak the same language from the same
catalogue (resources/locale/<language>/LC_MESSAGES/tensorviz-<area>.mo, one per area so
translators of different areas never edit the same file; tools/translations.py makes them).

Core modules mark a text with `_("...")` (or `ngettext` for counts) and fill it with
`.format(...)` after translation, never inside the marked string: the catalogue holds the
template, the numbers stay ours. torch's own messages, code, names and numbers are never
translated. The language is process-wide: the GUI sets it from View → Language, the CLI from
--lang or the environment (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), as gettext does.
"""

from __future__ import annotations

import gettext
import os

from tensorviz.resource_files import resource_path

DOMAIN = "tensorviz"
ENGLISH = "en"
CHINESE = "zh_CN"
LANGUAGES = {ENGLISH: "English", CHINESE: "简体中文"}

_translations: gettext.NullTranslations = gettext.NullTranslations()
_language = ENGLISH


def locale_dir():
    return resource_path("locale")


def normalize_language(code: str | None) -> str | None:
    """'zh_CN.UTF-8', 'zh-Hans', 'zh' → 'zh_CN'; 'en_US' → 'en'; unknown → None."""
    if not code:
        return None
    base = code.split(".")[0].split("@")[0].replace("-", "_")
    lowered = base.lower()
    if lowered.startswith("zh"):
        return CHINESE  # Simplified is the only Chinese we have (zh_TW users read it too)
    if lowered in ("c", "posix") or lowered.startswith("en"):
        return ENGLISH
    return None


def language_from_environment() -> str:
    """The language gettext would pick from LANGUAGE / LC_ALL / LC_MESSAGES / LANG."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for part in os.environ.get(variable, "").split(":"):
            if (found := normalize_language(part)) is not None:
                return found
    return ENGLISH


def set_language(code: str) -> str:
    """Make `code` the language of every later `_()`; returns the language now in force."""
    global _translations, _language
    language = normalize_language(code) or ENGLISH
    _translations = gettext.NullTranslations()
    if language != ENGLISH:
        folder = locale_dir() / language / "LC_MESSAGES"
        for catalogue in sorted(folder.glob(f"{DOMAIN}-*.mo"), reverse=True):
            with catalogue.open("rb") as stream:
                area = gettext.GNUTranslations(stream)
            area.add_fallback(_translations)  # each area's catalogue, then the others
            _translations = area
    _language = language
    return language


def current_language() -> str:
    return _language


def _(message: str) -> str:
    return _translations.gettext(message)


def N_(message: str) -> str:  # noqa: N802 (gettext's name for "extract now, translate at use")
    """Marks a text for the catalogue where it is defined (a constant made at import); _() turns
    it into the language in force where it is shown."""
    return message


def ngettext(singular: str, plural: str, count: int) -> str:
    return _translations.ngettext(singular, plural, count)


def pgettext(context: str, message: str) -> str:
    """A text whose translation depends on where it is used (the same English word twice)."""
    return _translations.pgettext(context, message)


class LaterText(str):
    """A text made now and translated where it is shown, for results that outlive a switch of
    language (a backward pass's local derivatives, read before the pass frees them). As a str
    it is the English; `.format(...)` keeps the message and its arguments; `shown()` gives it in
    the language in force."""

    message: str
    arguments: dict

    def __new__(cls, message: str, arguments: dict | None = None) -> LaterText:
        arguments = dict(arguments or {})
        text = super().__new__(cls, message.format(**arguments) if arguments else message)
        text.message, text.arguments = message, arguments
        return text

    def format(self, *args, **kwargs) -> LaterText:  # noqa: A003 — str's own name, kept
        if args:
            raise TypeError("LaterText takes named arguments only")
        return LaterText(self.message, {**self.arguments, **kwargs})

    def shown(self) -> str:
        text = _(self.message)
        return text.format(**self.arguments) if self.arguments else text


def later(message: str) -> LaterText:
    """Mark `message` for the catalogue and keep it untranslated until shown (LaterText)."""
    return LaterText(message)


def shown(text: str) -> str:
    """`text` in the language in force: a LaterText translated now, any other str as it is."""
    return text.shown() if isinstance(text, LaterText) else text
