"""The words beside the picture, built from core's answers (formula, readers, contiguity, walk).

Each text is one whole template in the language in force (Qt's translator, context
"LayoutTexts"; core's sentences come translated from gettext), with its numbers filled in after
translation, and its colours and sizes read from the theme and zoom in force: callers build them
again when the language, theme or zoom changes."""

from __future__ import annotations

import re
from html import escape

import numpy as np
from PySide6.QtCore import QCoreApplication

from tensorviz.core.memory.strides import (
    Layout,
    check_view,
    contiguity,
    formula,
    index_names,
    storage_index_of,
    stride_zero_dims,
)
from tensorviz.ui.widgets.theme import colour, scaled

translate = QCoreApplication.translate  # lupdate reads the context given
MONO = "font-family:'DejaVu Sans Mono',monospace"
READERS_LISTED = 12
_PLACEHOLDER = re.compile(r"%(\d)")


def filled(template: str, *values) -> str:
    """Qt's %1 %2 … placeholders of a translated template, filled in one pass (so a value
    that happens to contain "%2" is never filled again)."""
    return _PLACEHOLDER.sub(lambda m: str(values[int(m[1]) - 1]), template)


def muted_style() -> str:
    return f"color:{colour('muted').name()}"


def walk_prompt() -> str:
    return translate("LayoutTexts", "Step or Play to read the elements in logical order.")


def index_text(name: str, index) -> str:
    return f"{name}[{', '.join(map(str, index))}]"


def summary_text(tensor) -> str:
    layout = Layout.of(tensor)
    if layout.element_size == 1:
        size = translate("LayoutTexts", "1 byte")
    else:
        size = filled(translate("LayoutTexts", "%1 bytes"), layout.element_size)
    if tensor.is_contiguous():
        template = translate(
            "LayoutTexts", "shape [%1] · stride %2 · offset %3 · %4 (%5) · contiguous"
        )
    else:
        template = translate(
            "LayoutTexts", "shape [%1] · stride %2 · offset %3 · %4 (%5) · not contiguous"
        )
    shape = ", ".join(map(str, layout.shape))
    dtype = str(tensor.dtype).removeprefix("torch.")
    return filled(template, shape, layout.stride, layout.offset, dtype, size)


def caption(name: str, fixed) -> str:
    shown = ", ".join(":" if i is None else str(i) for i in fixed)
    return filled(
        translate(
            "LayoutTexts",
            "%1[%2] — each cell shows its value and @ the storage cell it reads, coloured like "
            "that cell below (light = start, dark = end).",
        ),
        name,
        shown,
    )


def formula_html(name: str, layout: Layout, index, cell_bytes: int) -> str:
    symbolic, numeric = formula(layout, index)
    cell = storage_index_of(layout, index)
    strides = ", ".join(f"s{d} = {s}" for d, s in enumerate(layout.stride)) or translate(
        "LayoutTexts", "no dims"
    )
    offsets = filled(translate("LayoutTexts", "offset = %1, %2"), layout.offset, strides)
    reads = filled(
        translate("LayoutTexts", "<b>%1</b> reads storage cell <b>%2</b> (byte %3)"),
        escape(index_text(name, index)),
        cell,
        f"{cell * cell_bytes:,}",
    )
    return (
        f"{reads}<br>"
        f'<span style="{MONO}; {muted_style()}">{escape(symbolic)}</span><br>'
        f'<span style="{MONO}; font-size:{scaled(14)}px">{escape(numeric)}</span><br>'
        f"<span style='{muted_style()}'>{offsets}</span>"
    )


def readers_html(name: str, cell: int, readers: np.ndarray, total: int) -> str:
    if not total:
        return filled(
            translate("LayoutTexts", "Storage cell <b>%1</b> is not read by %2."),
            cell,
            escape(name),
        )
    listed = ", ".join(escape(index_text(name, r)) for r in readers[:READERS_LISTED])
    if total > READERS_LISTED:
        listed = filled(
            translate("LayoutTexts", "%1 … and %2 more"), listed, f"{total - READERS_LISTED:,}"
        )
    if total == 1:
        template = translate(
            "LayoutTexts", "Storage cell <b>%1</b> is read by <b>1</b> element of %2."
        )
        head = filled(template, cell, escape(name))
    else:
        head = filled(
            translate(
                "LayoutTexts",
                "Storage cell <b>%1</b> is read by <b>%2</b> elements of %3 — one cell, many "
                "elements: that is stride 0 (expand / broadcasting).",
            ),
            cell,
            f"{total:,}",
            escape(name),
        )
    return f'{head}<br><span style="{MONO}">{listed}</span>'


def layout_html(name: str, layout: Layout, byte_stride, sharers=()) -> str:
    """The layout facts of `name`; `sharers` are the other StripMembers reading its storage."""
    facts = filled(
        translate("LayoutTexts", "%1: shape [%2], stride (%3) elements = %4 bytes, offset %5"),
        escape(name),
        ", ".join(map(str, layout.shape)),
        ", ".join(map(str, layout.stride)),
        escape(str(tuple(byte_stride))),
        layout.offset,
    )
    lines = [f'<span style="{MONO}">{facts}</span>']
    report = contiguity(layout)
    lines += [escape(line) for line in report.text().splitlines()]
    if not report.is_contiguous and layout.numel:
        lines.append(
            escape(check_view(layout, (layout.numel,)).text().replace("view(", f"{name}.view("))
        )
    zero = stride_zero_dims(layout)
    if zero:
        names = index_names(len(layout.shape))
        dims = ", ".join(
            filled(translate("LayoutTexts", "dim %1 (%2, size %3)"), d, names[d], layout.shape[d])
            for d in zero
        )
        lines.append(
            filled(
                translate(
                    "LayoutTexts",
                    "<b>Stride 0</b> in %1: moving along it never moves in memory — many grid "
                    "cells read one storage cell. expand() made this without copying; repeat() "
                    "would copy for real.",
                ),
                escape(dims),
            )
        )
    if sharers:
        lines.append(translate("LayoutTexts", "<b>Same storage</b> (one strip, one colour each):"))
        lines += [f'<span style="{MONO}">{escape(m.describe())}</span>' for m in sharers]
    return "<br>".join(lines)


def walk_html(name: str, index, cell: int, position: int, total: int, jump, trail) -> str:
    where = escape(index_text(name, index))
    if jump is None:
        template = translate(
            "LayoutTexts", "step %1 of %2: <b>%3</b> reads cell <b>%4</b> — the first element"
        )
        step = filled(template, f"{position + 1:,}", f"{total:,}", where, cell)
    else:
        template = translate(
            "LayoutTexts",
            "step %1 of %2: <b>%3</b> reads cell <b>%4</b> — storage index jumps <b>%5</b>",
        )
        step = filled(template, f"{position + 1:,}", f"{total:,}", where, cell, f"{jump:+d}")
    trail_text = " → ".join(map(str, trail))
    return f'{step}<br><span style="{MONO}; {muted_style()}">{escape(trail_text)}</span>'
