"""Widgets that set their texts in one `retranslate()` method, called once they are built and
again whenever the language changes (Qt sends LanguageChange to every widget when a translator
is installed), so View → Language takes effect in the open window without a restart."""

from __future__ import annotations

from PySide6.QtCore import QEvent


class Retranslating:
    """Mixin, listed before the Qt base class: `class Panel(Retranslating, QWidget)`."""

    def retranslate(self) -> None:  # set every user-visible text here, with self.tr(...)
        raise NotImplementedError

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
