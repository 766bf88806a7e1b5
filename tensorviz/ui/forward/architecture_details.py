"""The text beside the architecture: what a clicked module call, op or tensor is.

Each text is made when shown, in the language in force (the details pane renders it again on a
switch), with the theme's colours; torch's own message stays as torch wrote it."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QCoreApplication

from tensorviz.core.forward.architecture import Architecture
from tensorviz.core.forward.nested_layout import params_text
from tensorviz.core.forward.tied_weights import tied_sentence
from tensorviz.ui.autograd.details_pane import heading
from tensorviz.ui.widgets.theme import colour


def meta_note() -> str:
    return QCoreApplication.translate(
        "ArchitectureDetails", "shapes only — meta tensors hold no values"
    )


def _hex(role: str) -> str:
    return colour(role).name()


def _bytes(count: int) -> str:
    for unit, size in (("GB", 2**30), ("MB", 2**20), ("KB", 2**10)):
        if count >= size:
            return f"{count / size:.1f} {unit}"
    return QCoreApplication.translate("ArchitectureDetails", "%n bytes", "", count)


def _comma() -> str:
    return QCoreApplication.translate("ArchitectureDetails", ", ")  # 中文：“，”


def _module_calls(count: int) -> str:
    return QCoreApplication.translate("ArchitectureDetails", "%n module calls", "", count)


def _torch_operations(count: int) -> str:
    return QCoreApplication.translate("ArchitectureDetails", "%n torch operations", "", count)


def _tensors(rows) -> str:
    none = QCoreApplication.translate("ArchitectureDetails", "none")
    return (
        "<br>".join(f"&nbsp;&nbsp;{escape(path)}: {escape(info.text())}" for path, info in rows)
        or f"&nbsp;&nbsp;{none}"
    )


def intro_text(architecture: Architecture) -> str:
    record = architecture.record
    ops = sum(1 for n in record.nodes.values() if n.kind == "op")
    comma = _comma()
    counts = _module_calls(len(record.calls)) + comma + _torch_operations(ops)
    if record.modules:
        counts += comma + params_text(record.modules[next(iter(record.modules))].total_params)
    lines = [f"<p><b>{escape(record.title)}</b></p>", f"<p>{counts}</p>"]
    tied = [tied_sentence(name, tied_to) for name, tied_to in record.tied()]
    if tied:
        lines.append(f"<p>{'<br>'.join(escape(sentence) for sentence in tied)}</p>")
    if architecture.folds:
        folded = ", ".join(f"{f.label} ({f.names})" for f in architecture.folds[:4])
        text = QCoreApplication.translate("ArchitectureDetails", "Repeated blocks, folded: %1")
        lines.append(f"<p>{text.replace('%1', escape(folded))}</p>")
    if record.meta:
        lines.append(f"<p style='color:{_hex('link')}'><b>{meta_note()}</b></p>")
    if record.error is not None:
        lines.append(error_text(architecture))
    hint = QCoreApplication.translate(
        "ArchitectureDetails",
        "Click a box or op for its details; double-click a box to open it, click a frame's "
        "header to close it. Edges are tensors, labelled with their shape (and dtype when not "
        "float32). Purple boxes are modules, dashed frames folded repeats, red the op that "
        "raised.",
    )
    lines.append(f"<p style='color:{_hex('muted')}'>{hint}</p>")
    return "".join(lines)


def error_text(architecture: Architecture) -> str:
    record = architecture.record
    error = record.error
    if record.failed_node is not None:
        where = QCoreApplication.translate(
            "ArchitectureDetails",
            "The forward raised %1 at op %2; everything up to there is drawn.",
        ).replace("%2", f"<b>{escape(record.nodes[record.failed_node].label)}</b>")
    elif record.failed_call is not None:
        where = QCoreApplication.translate(
            "ArchitectureDetails",
            "The forward raised %1 in the code of %2; everything up to there is drawn.",
        ).replace("%2", f"<b>{escape(record.calls[record.failed_call].title)}</b>")
    else:
        where = QCoreApplication.translate(
            "ArchitectureDetails", "The forward raised %1; everything up to there is drawn."
        )
    where = where.replace("%1", f"<b>{escape(record.error_type)}</b>")
    torch_says = QCoreApplication.translate("ArchitectureDetails", "torch says:")
    why = QCoreApplication.translate("ArchitectureDetails", "why:")
    fix = QCoreApplication.translate("ArchitectureDetails", "fix:")
    return (
        f"<p style='color:{_hex('error_text')}'>{where}</p>"
        f"<p><b>{escape(error.title)}</b><br><i>{torch_says}</i> {escape(error.torch_message)}"
        f"<br><i>{why}</i> {escape(error.explanation)}<br><i>{fix}</i> {escape(error.fix)}</p>"
    )


def _kind_title(kind: str) -> str:
    titles = {
        "op": QCoreApplication.translate("ArchitectureDetails", "torch operation"),
        "input": QCoreApplication.translate("ArchitectureDetails", "input of the forward"),
        "output": QCoreApplication.translate("ArchitectureDetails", "output of the forward"),
        "tensor": QCoreApplication.translate("ArchitectureDetails", "tensor from outside"),
        "module_output": QCoreApplication.translate(
            "ArchitectureDetails", "what a module returned"
        ),
    }
    return titles[kind]


def _field(name: str) -> str:
    return f"<b>{escape(name)}</b>"


def item_details(architecture: Architecture, item: str) -> str:
    record = architecture.record
    if item in record.calls:
        return _call_details(architecture, item)
    node = record.nodes.get(item)
    if node is None:
        return ""
    lines = [
        heading(escape(node.label)),
        f"<i>{_kind_title(node.kind)}</i>",
    ]
    model = QCoreApplication.translate("ArchitectureDetails", "(model)")
    if node.call is not None:
        chain = " › ".join(record.calls[c].title or model for c in record.call_chain(node.call))
        lines.append(
            _field(QCoreApplication.translate("ArchitectureDetails", "in")) + ": " + escape(chain)
        )
    inputs = [e for e in record.edges if e.target == item]
    if inputs:
        lines.append(_field(QCoreApplication.translate("ArchitectureDetails", "inputs")) + ":")
        source = QCoreApplication.translate("ArchitectureDetails", "%1 from %2")
        lines += [
            "&nbsp;&nbsp;"
            + source.replace("%1", escape(e.tensor.text())).replace(
                "%2", escape(record.nodes[e.source].label)
            )
            for e in inputs
        ]
    if node.parameters:
        read = QCoreApplication.translate("ArchitectureDetails", "parameters read")
        lines.append(_field(read) + ": " + escape(", ".join(node.parameters)))
    outputs = escape(", ".join(t.text() for t in node.outputs) or "—")
    lines.append(
        _field(QCoreApplication.translate("ArchitectureDetails", "outputs")) + ": " + outputs
    )
    if node.in_place:
        lines.append(
            QCoreApplication.translate(
                "ArchitectureDetails",
                "It writes its input in place (the edge out of it is the new version).",
            )
        )
    if node.failed:
        lines.append(error_text(architecture))
    return "<br>".join(lines)


def _call_details(architecture: Architecture, call_id: str) -> str:
    record = architecture.record
    call = record.calls[call_id]
    module = record.modules.get(call.module)
    qualified = QCoreApplication.translate("ArchitectureDetails", "qualified name")
    itself = QCoreApplication.translate("ArchitectureDetails", "(the model itself)")
    model = QCoreApplication.translate("ArchitectureDetails", "(model)")
    lines = [
        heading(escape(call.title or model)),
        f"<i>{escape(call.class_name)}</i> · {qualified} "
        f"<code>{escape(call.module or itself)}</code>",
    ]
    fold = architecture.fold_of_call(call_id)
    if fold is not None:
        text = QCoreApplication.translate(
            "ArchitectureDetails", "%1 (%2), the same recorded structure each time"
        )
        repeated = _field(QCoreApplication.translate("ArchitectureDetails", "repeated"))
        lines.append(
            f"{repeated}: "
            + text.replace("%1", escape(fold.label)).replace("%2", escape(fold.names))
        )
    if module is not None:
        calls = len(module.calls)  # a plain name: pyside6-lupdate skips calls in the count
        if calls > 1:
            called = QCoreApplication.translate(
                "ArchitectureDetails", "called %n times (this is call %1)", "", calls
            )
            lines.append(called.replace("%1", str(call.number)))
        text = QCoreApplication.translate("ArchitectureDetails", "%1 (%2), %3 of its own")
        text = text.replace("%1", params_text(module.total_params))
        text = text.replace("%2", _bytes(module.total_bytes))
        text = text.replace("%3", params_text(module.own_params))
        lines.append(
            _field(QCoreApplication.translate("ArchitectureDetails", "parameters")) + ": " + text
        )
        buffer = QCoreApplication.translate("ArchitectureDetails", " (buffer)")
        for p in module.own_parameters:
            tied = ""
            if p.tied_to:
                qualified = f"{module.name}.{p.name}" if module.name else p.name
                tied = " — " + escape(tied_sentence(qualified, p.tied_to))
            lines.append(
                f"&nbsp;&nbsp;{escape(p.name)}: {list(p.shape)} {p.dtype}, "
                f"{_bytes(p.nbytes)}" + (buffer if p.kind == "buffer" else "") + tied
            )
    lines.append(
        _field(QCoreApplication.translate("ArchitectureDetails", "inputs"))
        + ":<br>"
        + _tensors(call.inputs)
    )
    lines.append(
        _field(QCoreApplication.translate("ArchitectureDetails", "outputs"))
        + ":<br>"
        + _tensors(call.outputs)
    )
    ops = len(record.ops_in(call_id))
    children = sum(1 for kind, _unused in call.items if kind == "call")
    lines.append(
        QCoreApplication.translate(
            "ArchitectureDetails", "%n torch operations directly inside", "", ops
        )
        + _comma()
        + _module_calls(children)
    )
    if not call.finished:
        text = QCoreApplication.translate("ArchitectureDetails", "It did not return: %1")
        text = text.replace("%1", escape(call.error))
        lines.append(f"<span style='color:{_hex('error_text')}'>{text}</span>")
    return "<br>".join(lines)
