"""What the window remembers between runs (QSettings): geometry, layout, area, recent files,
the Script area's text, language, theme and zoom, whether the last session comes back on
start."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings, QStandardPaths

MAX_RECENT_FILES = 10


class AppSettings:
    def __init__(self, settings: QSettings | None = None) -> None:
        # Tests pass an INI file in a temporary folder; the app uses the platform default.
        self.qsettings = settings if settings is not None else QSettings()
        self._platform_default = settings is None

    def recent_files(self) -> list[str]:
        value = self.qsettings.value("recent_files", [])
        if isinstance(value, str):  # QSettings returns a lone string for a one-item list
            value = [value]
        return [str(v) for v in value or []]

    def add_recent_file(self, path: str) -> None:
        files = [path] + [p for p in self.recent_files() if p != path]
        self._set_recent(files[:MAX_RECENT_FILES])

    def remove_recent_file(self, path: str) -> None:
        self._set_recent([p for p in self.recent_files() if p != path])

    def clear_recent_files(self) -> None:
        self._set_recent([])

    def _set_recent(self, files: list[str]) -> None:
        self.qsettings.setValue("recent_files", files)
        self.qsettings.sync()

    def geometry(self) -> QByteArray | None:
        return self._bytes("window/geometry")

    def window_state(self) -> QByteArray | None:
        return self._bytes("window/state")

    def save_window(self, geometry: QByteArray, state: QByteArray) -> None:
        self.qsettings.setValue("window/geometry", geometry)
        self.qsettings.setValue("window/state", state)
        self.qsettings.sync()

    def current_area(self) -> str | None:
        value = self.qsettings.value("window/area")
        return str(value) if value else None

    def set_current_area(self, key: str) -> None:
        self.qsettings.setValue("window/area", key)

    def script_text(self) -> str | None:
        """The Script area's editor text (None before the area was first used)."""
        value = self.qsettings.value("script/text")
        return None if value is None else str(value)

    def set_script_text(self, text: str) -> None:
        self.qsettings.setValue("script/text", text)
        self.qsettings.sync()

    def script_path(self) -> str | None:
        """The file the Script area's text was opened from (None: typed or pasted text)."""
        value = self.qsettings.value("script/path")
        return str(value) if value else None

    def set_script_path(self, path: str | None) -> None:
        self.qsettings.setValue("script/path", path or "")
        self.qsettings.sync()

    def language(self) -> str | None:
        """'system', 'en' or 'zh_CN' as chosen in View → Language (None: never chosen)."""
        value = self.qsettings.value("view/language")
        return str(value) if value else None

    def set_language(self, key: str) -> None:
        self.qsettings.setValue("view/language", key)
        self.qsettings.sync()

    def theme(self) -> str | None:
        value = self.qsettings.value("view/theme")
        return str(value) if value else None

    def set_theme(self, key: str) -> None:
        self.qsettings.setValue("view/theme", key)
        self.qsettings.sync()

    def zoom(self) -> float:
        try:
            return float(self.qsettings.value("view/zoom", 1.0))
        except (TypeError, ValueError):  # a hand-edited settings file
            return 1.0

    def set_zoom(self, zoom: float) -> None:
        self.qsettings.setValue("view/zoom", float(zoom))
        self.qsettings.sync()

    def restore_last_session(self) -> bool:
        """Whether the session the app had when it closed is opened again on start."""
        return str(self.qsettings.value("session/restore_last", "true")).lower() == "true"

    def set_restore_last_session(self, restore: bool) -> None:
        self.qsettings.setValue("session/restore_last", "true" if restore else "false")
        self.qsettings.sync()

    def last_session_path(self) -> Path:
        """Where the app keeps its last session: the platform's data folder, or beside a
        settings file given explicitly (tests keep everything in one temporary folder)."""
        if self._platform_default:
            location = QStandardPaths.StandardLocation.AppDataLocation
            folder = Path(QStandardPaths.writableLocation(location))
        else:
            folder = Path(self.qsettings.fileName()).parent
        return folder / "last-session.tvsession"

    def _bytes(self, key: str) -> QByteArray | None:
        value = self.qsettings.value(key)
        return value if isinstance(value, QByteArray) and not value.isEmpty() else None
