"""The text beside the graph: what a clicked node is, what it saved, what backward sent through it.

Values are read from the live torch objects each time (saved tensors may have been freed by a
backward since the graph was drawn); every read goes through core's defensive readers."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QCoreApplication

from tensorviz.core.autograd.backward_steps import BackwardVisit, GradSummary, why_grad_is_none
from tensorviz.core.autograd.graph import AutogradGraph
from tensorviz.core.autograd.local_derivatives import NodeDerivatives, node_derivatives
from tensorviz.core.autograd.saved_values import saved_values
from tensorviz.core.graph_layout.layered_layout import node_detail
from tensorviz.core.translation import shown
from tensorviz.ui.autograd.details_pane import heading
from tensorviz.ui.widgets.theme import colour

translate = QCoreApplication.translate


def _kind_title(kind: str, rewrite: bool) -> str:
    if rewrite:
        return translate("GraphDetails", "In-place rewrite (CopySlices / AsStrided)")
    return {
        "tensor": translate("GraphDetails", "Root tensor"),
        "backward": translate("GraphDetails", "Backward node"),
        "accumulate_grad": translate("GraphDetails", "Leaf tensor (AccumulateGrad)"),
    }[kind]


def labelled(title: str, rest: str) -> str:
    """A bold label and what follows it, with the language's own colon (：in Chinese)."""
    return f"<b>{title}</b>" + translate("GraphDetails", ": ") + rest


def _grads_line(title: str, grads) -> str:
    shown = [g.text() if g is not None else "None" for g in grads]
    return labelled(title, escape("; ".join(shown) if shown else "—"))


def _visit_lines(visit: BackwardVisit | None, step_seen: bool) -> list[str]:
    if visit is None:
        return [
            "<i>" + translate("GraphDetails", "Backward has not reached this node yet.") + "</i>"
        ]
    if not step_seen:
        return [
            "<i>"
            + translate("GraphDetails", "Step on to see what backward sends through here.")
            + "</i>"
        ]
    lines = [_grads_line(translate("GraphDetails", "gradient arriving"), visit.grads_in)]
    if visit.op != "AccumulateGrad":
        lines.append(
            _grads_line(
                translate("GraphDetails", "gradients sent to inputs"),
                visit.grads_out,
            )
        )
    return lines


def node_details(
    graph: AutogradGraph,
    node: str,
    visit: BackwardVisit | None = None,
    step_seen: bool = False,
    backward_ran: bool = False,
    root=None,
    derivatives: NodeDerivatives | None = None,
) -> str:
    """Rich text for the details pane (node: a node id of `graph`; root: the root tensor;
    derivatives: as read before a pass freed the saved tensors, else read now)."""
    data = graph.graph.nodes[node]
    kind = data["kind"]
    title = _kind_title(kind, bool(data.get("rewrite")))
    lines = [heading(escape(data["label"])), f"<i>{title}</i>"]
    detail = node_detail(data)
    if kind == "backward":
        fn = graph.functions[node]
        produces = escape(detail.removeprefix("→ ") or "?")
        lines.append(labelled(translate("GraphDetails", "produces"), produces))
        inputs = [graph.graph.nodes[s]["label"] for s in graph.graph.predecessors(node)]
        none = translate("GraphDetails", "none")
        lines.append(
            labelled(translate("GraphDetails", "inputs"), escape(", ".join(inputs) or none))
        )
        if data.get("cut_inputs"):
            positions = ", ".join(str(p) for p in data["cut_inputs"])
            text = translate(
                "GraphDetails", "<b>cut inputs</b> (need no grad, marked ×): position %1"
            )
            lines.append(text.replace("%1", escape(positions)))
        saved = saved_values(fn)
        lines.append(labelled(translate("GraphDetails", "saved for backward"), ""))
        nothing = translate("GraphDetails", "nothing")
        lines += [f"&nbsp;&nbsp;{escape(s.describe())}" for s in saved] or [
            f"&nbsp;&nbsp;{nothing}"
        ]
        explained = derivatives if derivatives is not None else node_derivatives(graph, node)
        lines += derivative_lines(explained, visit if step_seen else None)
    elif kind == "accumulate_grad":
        leaf = graph.functions[node].variable
        shape = translate("GraphDetails", "shape")
        lines.append(f"<b>{shape}</b> {escape(detail)} · {data['dtype']} · requires_grad=True")
        lines.append(
            labelled(translate("GraphDetails", "value"), escape(GradSummary.of(leaf).text()))
        )
        if leaf.grad is not None:
            lines.append("<b>.grad</b>: " + escape(GradSummary.of(leaf.grad).text()))
        else:
            reason = why_grad_is_none(leaf, reached=visit is not None) if backward_ran else ""
            why = (
                "<br><i>" + translate("GraphDetails", "why?") + f"</i> {escape(reason)}"
                if reason
                else ""
            )
            lines.append("<b>.grad</b>: None" + why)
    else:
        lines.append(
            "<b>" + translate("GraphDetails", "shape") + f"</b> {escape(detail)} · {data['dtype']}"
        )
        if data.get("is_view"):
            lines.append(translate("GraphDetails", "It is a view (its _base is another tensor)."))
        lines.append(
            translate("GraphDetails", "Backward starts here with gradient 1 (d root / d root).")
        )
        if root is not None and backward_ran and not root.is_leaf:
            if root.retains_grad and root.grad is not None:
                lines.append("<b>.grad</b>: " + escape(GradSummary.of(root.grad).text()))
            else:
                reason = why_grad_is_none(root, reached=True)
                lines.append(
                    "<b>.grad</b>: None<br><i>"
                    + translate("GraphDetails", "why?")
                    + f"</i> {escape(reason)}"
                )
    if kind != "tensor":
        lines += ["", *_visit_lines(visit, step_seen)]
    if kind == "accumulate_grad" and visit is not None and step_seen:
        lines += _accumulation_lines(visit)
    return "<br>".join(lines)


def derivative_lines(explained: NodeDerivatives, visit: BackwardVisit | None) -> list[str]:
    """The node's local derivative per input, and — once the step is seen — the chain rule
    with the pass's own numbers: gradient sent = gradient arriving × local derivative."""
    if explained.status == "freed":
        return [
            translate(
                "GraphDetails",
                "<b>local derivative</b>: <i>its saved tensors were freed by a backward without "
                "retain_graph; run Backward again to read them</i>",
            )
        ]
    if explained.status == "unknown":
        return [
            translate(
                "GraphDetails", "<b>local derivative</b>: <i>not explained for this op yet</i>"
            )
        ]
    lines = [
        "",
        translate(
            "GraphDetails", "<b>local derivative</b> (the chain rule's factor on each edge):"
        ),
    ]
    arriving = visit.grads_in[0] if visit is not None and visit.grads_in else None
    for derivative in explained.derivatives:
        words = f" — {escape(shown(derivative.words))}" if derivative.words else ""
        lines.append(f"&nbsp;&nbsp;{escape(derivative.text())}{words}")
        sent = (
            visit.grads_out[derivative.input_nr]
            if visit is not None and derivative.input_nr < len(visit.grads_out)
            else None
        )
        if _scalar(arriving) and _scalar(derivative.value) and _scalar(sent):
            text = translate("GraphDetails", "chain rule: sent to %1 = %2 × %3 = %4")
            text = text.replace("%1", escape(derivative.symbol)).replace("%2", arriving.text())
            text = text.replace("%3", derivative.value.text()).replace("%4", sent.text())
            lines.append(f"&nbsp;&nbsp;&nbsp;&nbsp;{text}")
    return lines


def _accumulation_lines(visit: BackwardVisit) -> list[str]:
    """AccumulateGrad adds: `.grad` before this pass + what arrived = `.grad` after."""
    arriving = visit.grads_in[0] if visit.grads_in else None
    after = visit.leaf_grad
    if not (_scalar(arriving) and _scalar(after)):
        return [
            translate(
                "GraphDetails",
                "AccumulateGrad adds the arriving gradient into .grad; it never overwrites.",
            )
        ]
    before = after.values.item() - arriving.values.item()
    text = translate(
        "GraphDetails", "AccumulateGrad adds, it never overwrites: .grad = %1 + %2 = %3"
    )
    text = text.replace("%1", f"{before:.4g}").replace("%2", arriving.text())
    return [text.replace("%3", after.text())]


def _scalar(summary: GradSummary | None) -> bool:
    return summary is not None and summary.values.size == 1


def module_details(shown, full, node: str) -> str:
    """A collapsed module: what it produced and the nodes inside it."""
    data = shown.nodes[node]
    members = [full.nodes[m]["label"] for m in data["members"]]
    produces = escape(node_detail(data).removeprefix("→ ") or "?")
    count = len(members)  # a plain name: pyside6-lupdate skips calls in the count
    inside = translate("GraphDetails", "%n nodes inside", "", count)
    lines = [
        heading(escape(data["label"])),
        "<i>"
        + translate("GraphDetails", "nn.Module, collapsed (untick “group by nn.Module” to open it)")
        + "</i>",
        "<b>" + translate("GraphDetails", "produces") + f"</b>: {produces}",
        f"<b>{inside}</b>: " + escape(", ".join(members)),
    ]
    return "<br>".join(lines)


def intro_text(size: str, what: str, notes: str) -> str:
    """`size`: the graph's own count in words (AutogradGraph.size_text), as the status bar."""
    nodes = escape(size)
    how = translate(
        "GraphDetails",
        "Click a node for its details. Press <b>Backward</b> to run backward with a hook on "
        "every node, then <b>Step ▶</b> (F10) through the order torch visited them.",
    )
    legend = translate(
        "GraphDetails",
        "Green: leaves (AccumulateGrad; dashed: one stub per use of a shared weight). Blue: "
        "backward nodes. Purple: collapsed nn.Modules. Orange: in-place rewrites. Red ×: an "
        "input that needs no grad (cut). Edges run input → consumer; gradients flow back up.",
    )
    return (
        f"<p><b>{nodes}</b></p>"
        f"<p><code>{escape(what)}</code></p><p>{escape(notes)}</p>"
        f"<p>{how}</p><p style='color:{colour('muted').name()}'>{legend}</p>"
    )


def no_graph_text(reason: str) -> str:
    title = translate("GraphDetails", "No autograd graph")
    return f"<p><b>{title}</b></p><p>{escape(reason)}</p>"


def refused_text(error: str) -> str:
    """torch's own message, verbatim, under a translated title."""
    title = translate("GraphDetails", "backward() refused")
    return f"<p><b>{escape(title)}</b></p><p>{escape(error)}</p>"
