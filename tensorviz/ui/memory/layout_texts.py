"""The words beside the picture, built from core's answers (formula, readers, contiguity, walk)."""

from __future__ import annotations

from html import escape

import numpy as np

from tensorviz.core.memory.strides import (
    Layout,
    check_view,
    contiguity,
    formula,
    index_names,
    storage_index_of,
    stride_zero_dims,
)

MONO = "font-family:'DejaVu Sans Mono',monospace"
READERS_LISTED = 12
WALK_PROMPT = "Step or Play to read the elements in logical order."


def index_text(name: str, index) -> str:
    return f"{name}[{', '.join(map(str, index))}]"


def summary_text(tensor) -> str:
    layout = Layout.of(tensor)
    return (
        f"shape [{', '.join(map(str, layout.shape))}] · stride {layout.stride} · "
        f"offset {layout.offset} · {str(tensor.dtype).removeprefix('torch.')} "
        f"({layout.element_size} byte{'s' if layout.element_size != 1 else ''}) · "
        f"{'contiguous' if tensor.is_contiguous() else 'not contiguous'}"
    )


def caption(name: str, fixed) -> str:
    shown = ", ".join(":" if i is None else str(i) for i in fixed)
    return (
        f"{name}[{shown}] — each cell shows its value and @ the storage cell it reads, "
        "coloured like that cell below (light = start, dark = end). Hover: formula; click: "
        "who reads that cell. Wheel zooms, drag pans, double-click fits."
    )


def formula_html(name: str, layout: Layout, index, cell_bytes: int) -> str:
    symbolic, numeric = formula(layout, index)
    cell = storage_index_of(layout, index)
    strides = ", ".join(f"s{d} = {s}" for d, s in enumerate(layout.stride)) or "no dims"
    return (
        f"<b>{escape(index_text(name, index))}</b> reads storage cell <b>{cell}</b> "
        f"(byte {cell * cell_bytes:,})<br>"
        f'<span style="{MONO}; color:#6b7280">{escape(symbolic)}</span><br>'
        f'<span style="{MONO}; font-size:14px">{escape(numeric)}</span><br>'
        f"<span style='color:#6b7280'>offset = {layout.offset}, {strides}</span>"
    )


def readers_html(name: str, cell: int, readers: np.ndarray, total: int) -> str:
    if not total:
        return f"Storage cell <b>{cell}</b> is not read by {escape(name)}."
    listed = ", ".join(escape(index_text(name, r)) for r in readers[:READERS_LISTED])
    more = f" … and {total - READERS_LISTED:,} more" if total > READERS_LISTED else ""
    many = (
        " — one cell, many elements: that is stride 0 (expand / broadcasting)." if total > 1 else ""
    )
    return (
        f"Storage cell <b>{cell}</b> is read by <b>{total:,}</b> element"
        f"{'s' if total != 1 else ''} of {escape(name)}{many}<br>"
        f'<span style="{MONO}">{listed}{more}</span>'
    )


def layout_html(name: str, layout: Layout, byte_stride, sharers=()) -> str:
    """The layout facts of `name`; `sharers` are the other StripMembers reading its storage."""
    shape = ", ".join(map(str, layout.shape))
    stride = ", ".join(map(str, layout.stride))
    lines = [
        f'<span style="{MONO}">{escape(name)}: shape [{shape}], stride ({stride}) elements = '
        f"{escape(str(tuple(byte_stride)))} bytes, offset {layout.offset}</span>"
    ]
    report = contiguity(layout)
    lines += [escape(line) for line in report.text().splitlines()]
    if not report.is_contiguous and layout.numel:
        lines.append(
            escape(check_view(layout, (layout.numel,)).text().replace("view(", f"{name}.view("))
        )
    zero = stride_zero_dims(layout)
    if zero:
        names = index_names(len(layout.shape))
        dims = ", ".join(f"dim {d} ({names[d]}, size {layout.shape[d]})" for d in zero)
        lines.append(
            f"<b>Stride 0</b> in {escape(dims)}: moving along it never moves in memory — many "
            "grid cells read one storage cell. expand() made this without copying; repeat() "
            "would copy for real."
        )
    if sharers:
        lines.append("<b>Same storage</b> (one strip, one colour each):")
        lines += [f'<span style="{MONO}">{escape(m.describe())}</span>' for m in sharers]
    return "<br>".join(lines)


def walk_html(name: str, index, cell: int, position: int, total: int, jump, trail) -> str:
    if jump is None:
        moved = "the first element"
    else:
        moved = f"storage index jumps <b>{jump:+d}</b>"
    trail_text = " → ".join(map(str, trail))
    return (
        f"step {position + 1:,} of {total:,}: <b>{escape(index_text(name, index))}</b> reads "
        f'cell <b>{cell}</b> — {moved}<br><span style="{MONO}; color:#6b7280">'
        f"{escape(trail_text)}</span>"
    )
