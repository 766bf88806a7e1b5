"""The architecture as indented text (`tensorviz forward` without --json): one line per module
call down to the chosen depth, a folded repeat as one line, shapes in → out and parameters."""

from __future__ import annotations

from tensorviz.core.forward.architecture import Architecture
from tensorviz.core.forward.nested_layout import params_text
from tensorviz.core.forward.tied_weights import tied_sentence
from tensorviz.core.translation import _, ngettext


def _shapes(rows) -> str:
    return ", ".join(info.shape_text() for _unused, info in rows) or "—"


def architecture_lines(architecture: Architecture) -> list[str]:
    record, state = architecture.record, architecture.state
    folded = {}
    if state.fold:
        for fold in architecture.folds:
            folded[fold.members[0]] = fold
            for member in fold.members[1:]:
                folded[member] = None  # shown by the first member's line
    meta = _("  (meta: shapes only — no values)") if record.meta else ""
    lines = [f"# {record.title}{meta}"]
    lines += [f"# {tied_sentence(name, tied_to)}" for name, tied_to in record.tied()]

    def write(call: str, indent: str) -> None:
        info = record.calls[call]
        fold = folded.get(call)
        module = record.modules.get(info.module)
        params = module.total_params if module else 0
        name = info.title or _("(model)")
        if fold is not None:
            name = f"{fold.names} · {fold.label}"
            params *= len(fold.members)
        else:
            name = f"{name} · {info.class_name}"
        extra = f"  {params_text(params)}" if params else ""
        ops = len(record.ops_in(call))
        flag = "" if info.finished else _("  RAISED")
        counted = ngettext("({count} op)", "({count} ops)", ops).format(count=ops)
        lines.append(
            f"{indent}{name}  {_shapes(info.inputs)} → {_shapes(info.outputs)}"
            f"{extra}  {counted}{flag}"
        )
        if state.depth is not None and info.depth >= state.depth:
            return
        for kind, child in info.items:
            if kind == "call" and folded.get(child, True) is not None:
                write(child, indent + "  ")

    for kind, item in record.top_items:
        if kind == "call" and folded.get(item, True) is not None:
            write(item, "")
    top_ops = len(record.ops_in(None))
    if top_ops:
        outside = ngettext(
            "{count} op outside every module", "{count} ops outside every module", top_ops
        )
        lines.append(outside.format(count=top_ops))
    if record.error is not None:
        if record.failed_node:
            text = _("! the forward raised {error} at {where}: {title}")
            where = record.nodes[record.failed_node].label
        else:
            text, where = _("! the forward raised {error} in its code: {title}"), ""
        lines.append(text.format(error=record.error_type, where=where, title=record.error.title))
    return lines
