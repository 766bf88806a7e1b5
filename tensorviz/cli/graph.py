"""`tensorviz graph PRESET|SCRIPT.py [--tensor NAME] [--json] [--backward] [-o FILE]`: the Autograd
graph area's graph, headless.

A first argument that is an existing `.py` file is the user's script: it runs as `python
SCRIPT.py` would (their own code, `__main__`, its folder on sys.path) and the graph is the one of
its variable `--tensor NAME`. Anything else is a preset name. Prints the nodes and edges (input →
consumer); `--json` prints {"nodes": [{"id", "kind": "backward"|"accumulate_grad"|"tensor"|"saved",
"name", "shape", ...}], "edges": [{"source", "target", "output_nr"}]}: each saved tensor is a node
of kind "saved" (name "_saved_self", ..., shape, dtype, freed) with an edge saved → the backward
node that saved it whose output_nr is null (it is no output of a node); a node made inside an
nn.Module has "module" and "module_path" [{"name", "class"}, ...]. `--backward` also prints
the order torch visited the nodes and each leaf's .grad as a summary {shape, dtype, norm, min,
max}; `--values` adds every value ("values": the nested list).
`-o` writes .dot (structure), .svg or .png (the app's own scene, painted offscreen), atomically.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import traceback
from pathlib import Path

from tensorviz.cli.arguments import CliInputError, Subcommand, print_json
from tensorviz.cli.pictures import paint
from tensorviz.core.translation import N_, _

OUTPUT_SUFFIXES = (".dot", ".svg", ".png")


class ScriptFailedError(Exception):
    """The user's script raised: its traceback (trimmed to their file) is already printed."""


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    from tensorviz.core.autograd.presets import PRESETS

    parser.add_argument(
        "source",
        metavar="PRESET|SCRIPT.py",
        help=_("a script, or one of: {presets}").format(presets=", ".join(PRESETS)),
    )
    parser.add_argument(
        "--tensor", metavar="NAME", help=_("with a script: the variable whose graph to show")
    )
    parser.add_argument(
        "--backward", action="store_true", help=_("run backward and print the visit order")
    )
    parser.add_argument(
        "--values",
        action="store_true",
        help=_("with --backward --json: every value of each .grad, not only its summary"),
    )
    parser.add_argument(
        "-o", "--output", metavar="FILE", help=_("also write FILE.dot, FILE.svg or FILE.png")
    )


def gradient_summary(grad, values: bool = False) -> dict:
    """shape, dtype, norm, min, max of a gradient (a GPT-2's every value is a gigabyte of JSON);
    `values` adds them all."""
    import torch

    data = grad.detach()
    summary = {"shape": list(data.shape), "dtype": str(data.dtype).removeprefix("torch.")}
    if data.numel() and data.device.type != "meta":
        as_float = data.double() if not data.is_complex() else data.abs().double()
        summary.update(
            norm=float(torch.linalg.vector_norm(as_float)),
            min=float(as_float.min()),
            max=float(as_float.max()),
        )
    if values:
        summary["values"] = data.tolist()
    return summary


# --- the user's script ---------------------------------------------------------------------------


def _print_user_traceback(error: BaseException, script: str) -> None:
    """The traceback as `python SCRIPT.py` shows it: frames from the user's file on."""
    tb = error.__traceback__
    while tb is not None and os.path.abspath(tb.tb_frame.f_code.co_filename) != script:
        tb = tb.tb_next
    sys.stderr.write("".join(traceback.format_exception(type(error), error, tb)))


def run_script(path: str) -> dict:
    """Run `path` as `python path` would and return its globals (sys.argv/sys.path restored);
    its forwards are tagged with their modules, as the Script area's are (`module_path`)."""
    import runpy

    from tensorviz.core.forward.module_tags import tagging_modules

    script = os.path.abspath(path)
    saved_argv, saved_path = sys.argv[:], sys.path[:]
    sys.argv = [path]
    sys.path.insert(0, os.path.dirname(script))
    try:
        # What the script prints goes to stderr: stdout carries only our output (--json).
        with contextlib.redirect_stdout(sys.stderr), tagging_modules():
            return runpy.run_path(script, run_name="__main__")
    except SystemExit as error:
        if error.code in (None, 0):
            message = _("{path} called sys.exit() before its variables could be read").format(
                path=path
            )
            raise CliInputError(message) from None
        if not isinstance(error.code, int):
            print(error.code, file=sys.stderr)  # as python prints sys.exit("message")
        raise ScriptFailedError from None
    except Exception as error:
        _print_user_traceback(error, script)
        raise ScriptFailedError from None
    finally:
        sys.argv[:] = saved_argv
        sys.path[:] = saved_path


def _no_grad_fn_reason(tensor) -> str:
    if tensor.requires_grad:
        return _("it is a leaf (created with requires_grad=True; its gradient collects in .grad)")
    if tensor._base is not None and tensor._base.requires_grad:
        return _("it is a view cut from the graph (made by detach() or under torch.no_grad())")
    return _(
        "it is a leaf with requires_grad=False (nothing it came from required grad, or it was "
        "detached or computed under torch.no_grad())"
    )


def script_tensor(namespace: dict, name: str, script: str):
    """The variable `name` of the script's globals, if it is a tensor with a grad_fn."""
    import torch

    if name not in namespace:
        message = _("{script} defines no variable '{name}' at module level")
        raise CliInputError(message.format(script=script, name=name))
    value = namespace[name]
    if not isinstance(value, torch.Tensor):
        kind = type(value).__name__
        message = _("{name} is not a tensor: its type is {kind}")
        raise CliInputError(message.format(name=name, kind=kind))
    if value.grad_fn is None:
        message = _("{name} has no grad_fn: {reason}")
        raise CliInputError(message.format(name=name, reason=_no_grad_fn_reason(value)))
    return value


def leaf_names_of(namespace: dict):
    """Workspace names for leaves: the script's tensors and its modules' parameters."""
    import torch

    from tensorviz.core.autograd.graph import LeafNames

    names = LeafNames()
    for key, value in namespace.items():
        if key.startswith("__"):
            continue
        if isinstance(value, torch.nn.Module):
            names.add_module(value, prefix=f"{key}.")
        elif isinstance(value, torch.Tensor):
            names.add(key, value)
    return names


# --- output --------------------------------------------------------------------------------------


def _write_dot(graph, path: Path) -> None:
    from tensorviz.core.atomic_files import write_text_atomically
    from tensorviz.core.autograd.dot_text import to_dot

    write_text_atomically(path, to_dot(graph))


def wrong_suffix(suffix: str) -> str:
    return _("-o writes .dot, .svg or .png, not '{suffix}'").format(suffix=suffix)


def write_output(graph, output: str) -> None:
    path = Path(output)
    if path.suffix.lower() not in OUTPUT_SUFFIXES:
        raise CliInputError(wrong_suffix(path.suffix or output))
    if not path.parent.is_dir():
        message = _("cannot write {output}: no folder {folder}")
        raise CliInputError(message.format(output=output, folder=path.parent))
    try:
        if path.suffix.lower() == ".dot":
            _write_dot(graph, path)
        else:
            paint("autograd_graph", graph, path)
    except OSError as error:
        message = _("cannot write {output}: {reason}")
        raise CliInputError(message.format(output=output, reason=error.strerror or error)) from None


# --- the subcommand ------------------------------------------------------------------------------


def _load(args: argparse.Namespace):
    """(root tensor, extracted graph, header line) from a script or a preset."""
    from tensorviz.core.autograd.graph import extract_graph
    from tensorviz.core.autograd.presets import PRESETS

    source = args.source
    if source.lower().endswith(".py") and os.path.isfile(source):
        if not args.tensor:
            message = _("give the variable to draw: tensorviz graph {source} --tensor NAME")
            raise CliInputError(message.format(source=source))
        namespace = run_script(source)
        root = script_tensor(namespace, args.tensor, source)
        graph = extract_graph([root], leaf_names_of(namespace), [args.tensor])
        return root, graph, f"# {source}: {args.tensor}"
    if source.lower().endswith(".py"):
        raise CliInputError(_("no such script: {source}").format(source=source))
    if args.tensor:
        raise CliInputError(_("--tensor names a variable of a SCRIPT.py, not of a preset"))
    if source not in PRESETS:
        message = _("unknown preset '{key}' (choose from {known})")
        raise CliInputError(message.format(key=source, known=", ".join(PRESETS)))
    built = PRESETS[source].build()
    return built.root, built.extract(), f"# {PRESETS[source].code}"


def _run_graph(args: argparse.Namespace) -> int:
    from tensorviz.core.graph_layout.layered_layout import node_detail

    if args.values and not args.backward:
        raise CliInputError(_("--values adds the gradients' values to --backward: give both"))
    if args.output:
        suffix = Path(args.output).suffix.lower()
        if suffix not in OUTPUT_SUFFIXES:
            raise CliInputError(wrong_suffix(suffix or args.output))
    try:
        root, graph, header = _load(args)
    except ScriptFailedError:
        return 1
    if args.output:
        write_output(graph.graph, args.output)
    data = graph.to_json()
    if args.backward:
        from tensorviz.core.autograd.backward_steps import record_backward

        record = record_backward(graph, root)
        data["backward"] = [{"node": v.node, "op": v.op} for v in record.visits]
        data["grads"] = {
            graph.graph.nodes[n]["label"]: gradient_summary(
                graph.functions[n].variable.grad,
                args.values or (not args.json and graph.functions[n].variable.grad.numel() <= 6),
            )
            for n in graph.nodes_of_kind("accumulate_grad")
            if graph.functions[n].variable.grad is not None
        }
    if args.json:
        print_json(data)
        return 0
    print(header)
    for node_id, attrs in graph.graph.nodes(data=True):
        detail = node_detail(attrs)
        print(f"{node_id:>6}  {attrs['kind']:<15}  {attrs['label']}  {detail}".rstrip())
    for source, target, attrs in graph.graph.edges(data=True):
        output = _("(output {number})").format(number=attrs["output_nr"])
        print(f"{source:>6} -> {target}  {output}")
    if args.backward:
        order = " → ".join(v["op"] for v in data["backward"])
        print(_("backward order: {order}").format(order=order))
        for name, grad in data["grads"].items():
            shown = grad["values"] if "values" in grad else _summary_text(grad)
            print(f"{name}.grad = {shown}")
    return 0


def _summary_text(grad: dict) -> str:
    shape = grad["shape"] or "scalar"
    if "norm" not in grad:
        return f"{shape} {grad['dtype']}"
    return (
        f"{shape} {grad['dtype']} norm {grad['norm']:.4g} "
        f"min {grad['min']:.4g} max {grad['max']:.4g}"
    )


COMMAND = Subcommand(
    "graph",
    N_("the autograd graph of a preset or a script's tensor: nodes, edges, export"),
    _add_arguments,
    _run_graph,
)
