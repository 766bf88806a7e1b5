"""The language of the window: Qt's own machinery for the UI (QTranslator with our .qm and Qt's
shipped qtbase_zh_CN.qm for file dialogs and standard buttons) and core's gettext catalogue for
explanations and messages, switched together so the GUI and the CLI speak the same language.

Installing a translator makes Qt send LanguageChange to every widget; widgets retranslate their
texts there (see tensorviz/ui/widgets/retranslating.py), so switching needs no restart.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QObject, QTranslator, Signal

from tensorviz.core import translation
from tensorviz.resource_files import resource_path

SYSTEM = "system"


def system_language() -> str:
    """The language of the user's system, as one of ours (English when we have no catalogue)."""
    for name in QLocale.system().uiLanguages():
        if (found := translation.normalize_language(name)) is not None:
            return found
    return translation.language_from_environment()


def resolve(choice: str | None) -> str:
    """'system' (or nothing) → the system's language; 'zh_CN'/'en' stay; unknown → system's."""
    if choice and choice != SYSTEM:
        return translation.normalize_language(choice) or system_language()
    return system_language()


class LanguageSwitcher(QObject):
    """Holds the installed translators; `apply` swaps them and tells whoever listens. One per
    application (translators are application-wide): use `LanguageSwitcher.shared()`."""

    language_changed = Signal(str)  # the language now in force

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._translators: list[QTranslator] = []
        self.language = translation.ENGLISH

    def apply(self, choice: str | None) -> str:
        language = resolve(choice)
        app = QCoreApplication.instance()
        for translator in self._translators:
            app.removeTranslator(translator)
        self._translators = []
        if language != translation.ENGLISH:
            ours = resource_path("translations", f"tensorviz_{language}.qm")
            qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
            for directory, name in ((qt_dir, f"qtbase_{language}"), (str(ours.parent), ours.stem)):
                translator = QTranslator(self)
                if translator.load(name, directory):
                    self._translators.append(translator)
        translation.set_language(language)
        QLocale.setDefault(QLocale(language if language != translation.ENGLISH else "en_US"))
        for translator in self._translators:
            app.installTranslator(translator)  # (each install sends LanguageChange)
        changed = language != self.language
        self.language = language
        if changed:
            self.language_changed.emit(language)
        return language

    @classmethod
    def shared(cls) -> LanguageSwitcher:
        app = QCoreApplication.instance()
        found = app.findChild(cls, "tensorviz_language")
        if found is None:
            found = cls(app)
            found.setObjectName("tensorviz_language")
        return found
