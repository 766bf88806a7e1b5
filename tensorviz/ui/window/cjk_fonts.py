"""Chinese text needs a font with CJK glyphs. Qt falls back through fontconfig on its own, but
only to what is installed; we pick the family explicitly (the tutorials' readers on Linux have
Noto Sans CJK or WenQuanYi) and put it behind the UI font, so Latin text keeps its look."""

from __future__ import annotations

from PySide6.QtGui import QFont, QFontDatabase

PREFERRED = (
    "Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "WenQuanYi Micro Hei",
    "WenQuanYi Zen Hei", "Microsoft YaHei", "PingFang SC", "Hiragino Sans GB", "SimHei",
)  # fmt: skip


def cjk_family() -> str | None:
    """An installed family that writes Simplified Chinese, the preferred ones first."""
    installed = set(QFontDatabase.families())
    for family in PREFERRED:
        if family in installed:
            return family
    chinese = QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese)
    return chinese[0] if chinese else None


def add_cjk_fallback(font: QFont) -> QFont:
    """`font` with the CJK family behind its own (glyphs it lacks come from there)."""
    family = cjk_family()
    if family is not None and family not in font.families():
        font = QFont(font)
        font.setFamilies([*font.families(), family])
    return font
