"""The text beside the architecture: what a clicked module call, op or tensor is."""

from __future__ import annotations

from html import escape

from tensorviz.core.forward.architecture import Architecture
from tensorviz.core.forward.nested_layout import params_text

META_NOTE = "shapes only — meta tensors hold no values"


def _bytes(count: int) -> str:
    for unit, size in (("GB", 2**30), ("MB", 2**20), ("KB", 2**10)):
        if count >= size:
            return f"{count / size:.1f} {unit}"
    return f"{count} bytes"


def _tensors(rows) -> str:
    return (
        "<br>".join(f"&nbsp;&nbsp;{escape(path)}: {escape(info.text())}" for path, info in rows)
        or "&nbsp;&nbsp;none"
    )


def intro_text(architecture: Architecture) -> str:
    record = architecture.record
    ops = sum(1 for n in record.nodes.values() if n.kind == "op")
    lines = [
        f"<p><b>{escape(record.title)}</b></p>",
        f"<p>{len(record.calls)} module calls, {ops} torch operations",
    ]
    if record.modules:
        lines[-1] += f", {params_text(record.modules[next(iter(record.modules))].total_params)}"
    lines[-1] += "</p>"
    if architecture.folds:
        folded = ", ".join(f"{f.label} ({f.names})" for f in architecture.folds[:4])
        lines.append(f"<p>Repeated blocks, folded: {escape(folded)}</p>")
    if record.meta:
        lines.append(f"<p style='color:#8d5fd3'><b>{META_NOTE}</b></p>")
    if record.error is not None:
        lines.append(error_text(architecture))
    lines.append(
        "<p style='color:#6b7280'>Click a box or op for its details; double-click a box to "
        "open it, click a frame's header to close it. Edges "
        "are tensors, labelled with their shape (and dtype when not float32). Purple boxes are "
        "modules, dashed frames folded repeats, red the op that raised.</p>"
    )
    return "".join(lines)


def error_text(architecture: Architecture) -> str:
    record = architecture.record
    error = record.error
    where = ""
    if record.failed_node is not None:
        where = f"at op <b>{escape(record.nodes[record.failed_node].label)}</b>"
    elif record.failed_call is not None:
        where = f"in the code of <b>{escape(record.calls[record.failed_call].title)}</b>"
    return (
        f"<p style='color:#b3261e'><b>The forward raised {escape(record.error_type)}</b> "
        f"{where}; everything up to there is drawn.</p>"
        f"<p><b>{escape(error.title)}</b><br><i>torch says:</i> {escape(error.torch_message)}"
        f"<br><i>why:</i> {escape(error.explanation)}<br><i>fix:</i> {escape(error.fix)}</p>"
    )


def item_details(architecture: Architecture, item: str) -> str:
    record = architecture.record
    if item in record.calls:
        return _call_details(architecture, item)
    node = record.nodes.get(item)
    if node is None:
        return ""
    kind_title = {
        "op": "torch operation",
        "input": "input of the forward",
        "output": "output of the forward",
        "tensor": "tensor from outside",
        "module_output": "what a module returned",
    }[node.kind]
    lines = [f"<b style='font-size:12pt'>{escape(node.label)}</b>", f"<i>{kind_title}</i>"]
    if node.call is not None:
        lines.append(
            "<b>in</b>: "
            + escape(
                " › ".join(record.calls[c].title or "(model)" for c in record.call_chain(node.call))
            )
        )
    inputs = [e for e in record.edges if e.target == item]
    if inputs:
        lines.append("<b>inputs</b>:")
        lines += [
            f"&nbsp;&nbsp;{escape(e.tensor.text())} from {escape(record.nodes[e.source].label)}"
            for e in inputs
        ]
    if node.parameters:
        lines.append("<b>parameters read</b>: " + escape(", ".join(node.parameters)))
    lines.append("<b>outputs</b>: " + escape(", ".join(t.text() for t in node.outputs) or "—"))
    if node.in_place:
        lines.append("It writes its input in place (the edge out of it is the new version).")
    if node.failed:
        lines.append(error_text(architecture))
    return "<br>".join(lines)


def _call_details(architecture: Architecture, call_id: str) -> str:
    record = architecture.record
    call = record.calls[call_id]
    module = record.modules.get(call.module)
    lines = [
        f"<b style='font-size:12pt'>{escape(call.title or '(model)')}</b>",
        f"<i>{escape(call.class_name)}</i> · qualified name "
        f"<code>{escape(call.module or '(the model itself)')}</code>",
    ]
    fold = architecture.fold_of_call(call_id)
    if fold is not None:
        lines.append(
            f"<b>repeated</b>: {escape(fold.label)} ({escape(fold.names)}), the same "
            "recorded structure each time"
        )
    if module is not None:
        if len(module.calls) > 1:
            lines.append(f"called {len(module.calls)} times (this is call {call.number})")
        lines.append(
            f"<b>parameters</b>: {params_text(module.total_params)} "
            f"({_bytes(module.total_bytes)}), {params_text(module.own_params)} "
            "of its own"
        )
        for p in module.own_parameters:
            lines.append(
                f"&nbsp;&nbsp;{escape(p.name)}: {list(p.shape)} {p.dtype}, "
                f"{_bytes(p.nbytes)}" + (" (buffer)" if p.kind == "buffer" else "")
            )
    lines.append("<b>inputs</b>:<br>" + _tensors(call.inputs))
    lines.append("<b>outputs</b>:<br>" + _tensors(call.outputs))
    ops = len(record.ops_in(call_id))
    children = sum(1 for kind, _ in call.items if kind == "call")
    lines.append(f"{ops} torch operations directly inside, {children} module calls")
    if not call.finished:
        lines.append(f"<span style='color:#b3261e'>It did not return: {escape(call.error)}</span>")
    return "<br>".join(lines)
