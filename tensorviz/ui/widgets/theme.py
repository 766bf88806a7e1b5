"""Light and dark themes: one set of named colour roles per theme, the Qt palette and the app's
stylesheet made from them, and the zoom factor for a projector.

Everything that paints reads its colours here (`colour("ink")`), at paint time or when the
appearance changes (`Appearance.changed`), never from a hex constant of its own, so both themes
are readable everywhere. The stylesheet is resources/themes/app.qss with `{{role}}` placeholders;
every `Npx` in it is scaled by the zoom.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from PySide6.QtGui import QColor, QPalette

from tensorviz.resource_files import resource_path

ZOOM_STEPS = (0.75, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0, 2.25, 2.5)


@dataclass(frozen=True)
class Theme:
    key: str  # "light" | "dark"
    colours: dict[str, str]
    series: tuple[str, ...]  # distinct colours for things told apart by colour (storages, curves)

    def colour(self, role: str) -> QColor:
        return QColor(self.colours[role])

    @property
    def dark(self) -> bool:
        return self.key == "dark"


LIGHT = Theme(
    "light",
    {
        "window": "#ffffff", "surface": "#f7f8fa", "surface_alt": "#f3f4f6", "canvas": "#fbfcfe",
        "border": "#e5e7eb", "ink": "#1f2a44", "text": "#1f2a44", "muted": "#5f6673",
        "faint": "#8a919c", "accent": "#c2410c", "link": "#2b4a75", "selection": "#cfe0f3",
        "navigation": "#1f2a44", "navigation_text": "#e0e6f0", "navigation_selected": "#2e3d5e",
        "navigation_hover": "#27344f", "navigation_mark": "#ee6c4d",
        "error_text": "#b42318", "error_background": "#fff5f5", "error_border": "#f1a7a0",
        "notice_background": "#fff4e5", "notice_border": "#f4a261", "ok_text": "#1e6b45",
        "warning_text": "#8a4b08", "code_background": "#f3f4f6",
        "info_background": "#eef6fb", "info_border": "#98c1d9",
        "current_line": "#eef3fa", "failing_line": "#fde2e0",
        "plot_background": "#ffffff", "plot_foreground": "#1f2a44",
        # the Script area's Python colours (ui/script/python_highlighter.py) and its gutter
        "syntax_keyword": "#8331c9", "syntax_builtin": "#3d5a80", "syntax_module": "#1f6f66",
        "syntax_string": "#9a5210", "syntax_comment": "#5f6673", "syntax_number": "#b42318",
        "syntax_decorator": "#1d7268", "syntax_definition": "#1f2a44", "gutter_text": "#5f6673",
        # the Workbench's view / copy / in-place badge (text on a filled badge)
        "verdict_text": "#ffffff", "verdict_view": "#1f7a6f", "verdict_copy": "#3d5a80",
        "verdict_in_place": "#b5452b", "verdict_other": "#5f6673",
        # Memory layout: the storage gradient (light = start), the grid's highlights, and the
        # broadcasting verdicts (background, text).
        "storage_start": "#e0ecf6", "storage_end": "#1f4e79", "memory_hover": "#ee6c4d",
        "memory_selected": "#d62828", "memory_walk": "#f4d35e", "memory_walk_text": "#7a5c00",
        "verdict_equal": "#e7f5ee", "verdict_equal_text": "#1b6b40",
        "verdict_stretched": "#fff4e5", "verdict_stretched_text": "#8f4a06",
        "verdict_incompatible": "#fde8e8", "verdict_incompatible_text": "#b42318",
        # the Autograd graph and the Architecture view (ui/autograd, ui/forward)
        "graph_ink": "#1f2a44", "graph_muted": "#5f6673", "graph_edge": "#8a94a6",
        "graph_gradient": "#b3261e", "graph_current": "#c77c02", "graph_current_fill": "#fad391",
        "graph_selected": "#d62828", "graph_match": "#8d5fd3", "graph_cut": "#c0392b",
        "graph_tensor": "#3d5a80", "graph_on_tensor": "#ffffff", "graph_backward": "#e3edf7",
        "graph_leaf": "#cdebd6", "graph_rewrite": "#f9d9b8", "graph_module": "#e4dcf3",
        "graph_constant": "#dfe3ea", "graph_fold": "#d9ccf0", "graph_failed": "#f6c7c3",
        "graph_visited": "#fff2cc", "graph_label_background": "#ffffff",
        "graph_frame_1": "#f4f1fb", "graph_frame_2": "#ece6f8", "graph_frame_3": "#e4dcf3",
        "graph_frame_4": "#dcd2ee", "graph_frame_border": "#9c8cc4",
        # Files: the tree's kinds of rows (calls use error_text, values ok_text) and the rows of
        # tensors that share a storage or save a wasted one.
        "kind_object": "#5b21b6", "kind_module": "#115e59", "kind_global": "#854d0e",
        "kind_missing": "#b45309", "shared_background": "#fff4d6", "waste_background": "#fde8e8",
    },
    ("#3d5a80", "#ee6c4d", "#2a9d8f", "#8d5fd3", "#e9a23b", "#c0392b", "#5c7c2f", "#d6336c"),
)  # fmt: skip

DARK = Theme(
    "dark",
    {
        "window": "#181c24", "surface": "#1f2430", "surface_alt": "#262c3a", "canvas": "#151922",
        "border": "#343c4e", "ink": "#e6e9ef", "text": "#e6e9ef", "muted": "#a8b0bf",
        "faint": "#7d8799", "accent": "#ff9a76", "link": "#8fb8e8", "selection": "#34507a",
        "navigation": "#10131a", "navigation_text": "#d5dbe6", "navigation_selected": "#2a3550",
        "navigation_hover": "#1d2434", "navigation_mark": "#ff8a65",
        "error_text": "#ff9b8f", "error_background": "#3a1f22", "error_border": "#8a3a36",
        "notice_background": "#3a2e1a", "notice_border": "#b7791f", "ok_text": "#7fd6a4",
        "warning_text": "#f3c27a", "code_background": "#262c3a",
        "info_background": "#1c2b3a", "info_border": "#3f6b8f",
        "current_line": "#242b3b", "failing_line": "#4a2326",
        "plot_background": "#181c24", "plot_foreground": "#d5dbe6",
        "syntax_keyword": "#c792ea", "syntax_builtin": "#82aaff", "syntax_module": "#7fd6c8",
        "syntax_string": "#f0b37e", "syntax_comment": "#98a2b3", "syntax_number": "#f78c6c",
        "syntax_decorator": "#89ddff", "syntax_definition": "#e6e9ef", "gutter_text": "#a8b0bf",
        # the Workbench's view / copy / in-place badge (text on a filled badge)
        "verdict_text": "#10131a", "verdict_view": "#4fc3b1", "verdict_copy": "#7fa7d9",
        "verdict_in_place": "#ff8a65", "verdict_other": "#a8b0bf",
        "storage_start": "#c9dbee", "storage_end": "#2b5f93", "memory_hover": "#ff8a65",
        "memory_selected": "#ff5c5c", "memory_walk": "#ffd84d", "memory_walk_text": "#ffd84d",
        "verdict_equal": "#183a2a", "verdict_equal_text": "#8fe0b0",
        "verdict_stretched": "#3d2e14", "verdict_stretched_text": "#f6c27a",
        "verdict_incompatible": "#45201f", "verdict_incompatible_text": "#ff9b8f",
        # the Autograd graph and the Architecture view (ui/autograd, ui/forward)
        "graph_ink": "#e6e9ef", "graph_muted": "#b4bccb", "graph_edge": "#7d8799",
        "graph_gradient": "#ff9b8f", "graph_current": "#f2c14e", "graph_current_fill": "#5c4512",
        "graph_selected": "#ff6b6b", "graph_match": "#c4a8f0", "graph_cut": "#ef6f6c",
        "graph_tensor": "#4a6fa0", "graph_on_tensor": "#ffffff", "graph_backward": "#223349",
        "graph_leaf": "#1d3d2c", "graph_rewrite": "#4a321c", "graph_module": "#352b4d",
        "graph_constant": "#2c323d", "graph_fold": "#3b3058", "graph_failed": "#4d2426",
        "graph_visited": "#3f3616", "graph_label_background": "#181c24",
        "graph_frame_1": "#1f1d2b", "graph_frame_2": "#252236", "graph_frame_3": "#2b2741",
        "graph_frame_4": "#322d4b", "graph_frame_border": "#6d5f99",
        "kind_object": "#c4a7f5", "kind_module": "#5fd0c0", "kind_global": "#e3b964",
        "kind_missing": "#f0a35a", "shared_background": "#3b3320", "waste_background": "#432428",
    },
    ("#7fa7d9", "#ff8a65", "#4fc3b1", "#b39ddb", "#f2c14e", "#ef6f6c", "#9ccc65", "#f48fb1"),
)  # fmt: skip

THEMES = {"light": LIGHT, "dark": DARK}

# (text role, background role) pairs every theme must keep readable: WCAG AA, 4.5:1.
TEXT_ON_BACKGROUND = (
    ("text", "window"), ("text", "surface"), ("text", "surface_alt"), ("text", "canvas"),
    ("muted", "window"), ("muted", "surface"), ("link", "window"), ("accent", "window"),
    ("navigation_text", "navigation"), ("navigation_text", "navigation_selected"),
    ("error_text", "error_background"), ("error_text", "window"), ("ok_text", "window"),
    ("warning_text", "notice_background"), ("text", "notice_background"),
    ("text", "info_background"), ("text", "code_background"), ("text", "current_line"),
    ("text", "failing_line"), ("text", "selection"), ("plot_foreground", "plot_background"),
    # the script editor: every Python colour on its background, its current and failing line
    *((f"syntax_{kind}", background)
      for kind in ("keyword", "builtin", "module", "string", "comment", "number", "decorator",
                   "definition")
      for background in ("window", "current_line", "failing_line")),
    ("gutter_text", "code_background"), ("error_text", "code_background"),
    ("verdict_text", "verdict_view"), ("verdict_text", "verdict_copy"),
    ("verdict_text", "verdict_in_place"), ("verdict_text", "verdict_other"),
    # Memory layout: the grid's and strips' words, the walk's jump, the broadcasting verdicts.
    ("muted", "canvas"), ("memory_walk_text", "canvas"), ("verdict_equal_text", "verdict_equal"),
    ("verdict_stretched_text", "verdict_stretched"),
    ("verdict_incompatible_text", "verdict_incompatible"),
    # graph labels on their node fills (ui/autograd, ui/forward)
    ("graph_ink", "graph_backward"), ("graph_ink", "graph_leaf"), ("graph_ink", "graph_rewrite"),
    ("graph_ink", "graph_module"), ("graph_ink", "graph_constant"), ("graph_ink", "graph_fold"),
    ("graph_ink", "graph_failed"), ("graph_ink", "graph_visited"),
    ("graph_ink", "graph_current_fill"), ("graph_on_tensor", "graph_tensor"),
    ("graph_muted", "graph_backward"), ("graph_gradient", "graph_leaf"),
    ("graph_gradient", "graph_label_background"), ("graph_ink", "graph_frame_4"),
    ("graph_ink", "canvas"),
    # Files and Compare: kinds of rows and statuses on plain and alternate rows, shared storages.
    ("kind_object", "window"), ("kind_object", "surface"), ("kind_module", "window"),
    ("kind_module", "surface"), ("kind_global", "window"), ("kind_global", "surface"),
    ("kind_missing", "window"), ("kind_missing", "surface"), ("error_text", "surface"),
    ("ok_text", "surface"), ("warning_text", "window"), ("text", "shared_background"),
    ("text", "waste_background"), ("text", "error_background"),
)  # fmt: skip


def relative_luminance(colour: QColor) -> float:
    def channel(value: float) -> float:
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

    return (
        0.2126 * channel(colour.redF())
        + 0.7152 * channel(colour.greenF())
        + 0.0722 * channel(colour.blueF())
    )


def contrast_ratio(first: QColor, second: QColor) -> float:
    """WCAG 2 contrast ratio of two colours (1 … 21)."""
    high, low = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def palette_of(theme: Theme) -> QPalette:
    """Qt's palette for the widgets the stylesheet does not style (inputs, tables, menus)."""
    c = theme.colour
    palette = QPalette()
    roles = {
        QPalette.ColorRole.Window: c("window"), QPalette.ColorRole.WindowText: c("text"),
        QPalette.ColorRole.Base: c("window"), QPalette.ColorRole.AlternateBase: c("surface"),
        QPalette.ColorRole.Text: c("text"), QPalette.ColorRole.Button: c("surface_alt"),
        QPalette.ColorRole.ButtonText: c("text"), QPalette.ColorRole.ToolTipBase: c("surface"),
        QPalette.ColorRole.ToolTipText: c("text"), QPalette.ColorRole.Highlight: c("selection"),
        QPalette.ColorRole.HighlightedText: c("text"), QPalette.ColorRole.Link: c("link"),
        QPalette.ColorRole.PlaceholderText: c("faint"), QPalette.ColorRole.Mid: c("border"),
    }  # fmt: skip
    for role, colour in roles.items():
        palette.setColor(role, colour)
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text,
                 QPalette.ColorRole.ButtonText):  # fmt: skip
        palette.setColor(QPalette.ColorGroup.Disabled, role, c("faint"))
    return palette


_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")
_PIXELS = re.compile(r"(?<![\w.#])(\d+(?:\.\d+)?)px\b")


def stylesheet(theme: Theme, zoom: float = 1.0) -> str:
    """resources/themes/app.qss with the theme's colours filled in and sizes scaled by zoom."""
    template = resource_path("themes", "app.qss").read_text(encoding="utf-8")
    text = _PLACEHOLDER.sub(lambda m: theme.colours[m[1]], template)
    return _PIXELS.sub(lambda m: f"{max(1, round(float(m[1]) * zoom))}px", text)


def nearest_zoom_step(zoom: float) -> int:
    return min(range(len(ZOOM_STEPS)), key=lambda i: abs(ZOOM_STEPS[i] - zoom))


_current: list = [LIGHT, 1.0]  # the theme and zoom in force (set by ui/window/appearance.py)


def current_theme() -> Theme:
    return _current[0]


def current_zoom() -> float:
    return _current[1]


def colour(role: str) -> QColor:
    """A colour of the theme in force, read when painting."""
    return _current[0].colour(role)


def scaled(pixels: float) -> int:
    """A size in pixels at the zoom in force (fonts, cells, rows drawn by hand)."""
    return max(1, round(pixels * _current[1]))


def set_current(theme: Theme, zoom: float) -> None:
    _current[0], _current[1] = theme, zoom
