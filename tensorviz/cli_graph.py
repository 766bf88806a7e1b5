"""`tensorviz graph PRESET [--json] [--backward] [-o FILE.dot]`: the Autograd graph area's graph,
headless.

Prints the nodes and edges (input → consumer) of a preset graph; `--backward` also prints the
order torch visited the nodes and each leaf's .grad afterwards.
"""

from __future__ import annotations

import argparse

from tensorviz.cli import CliInputError, print_json, subcommand


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    from tensorviz.core.autograd_presets import PRESETS

    parser.add_argument("preset", help="one of: " + ", ".join(PRESETS))
    parser.add_argument(
        "--backward", action="store_true", help="run backward and print the visit order"
    )
    parser.add_argument("-o", "--output", metavar="FILE.dot", help="also write Graphviz DOT")


@subcommand("graph", "the autograd graph of a preset: nodes, edges, backward order", _add_arguments)
def _run_graph(args: argparse.Namespace) -> int:
    from tensorviz.core.autograd_graph import to_dot
    from tensorviz.core.autograd_presets import PRESETS
    from tensorviz.core.backward_steps import record_backward
    from tensorviz.core.graph_layout import node_detail

    if args.preset not in PRESETS:
        raise CliInputError(f"unknown preset '{args.preset}' (choose from {', '.join(PRESETS)})")
    if args.output and not args.output.lower().endswith(".dot"):
        raise CliInputError("-o writes Graphviz DOT: give a FILE.dot (PNG/SVG: the GUI's Export)")
    built = PRESETS[args.preset].build()
    graph = built.extract()
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as out:
                out.write(to_dot(graph.graph))
        except OSError as error:
            raise CliInputError(f"cannot write {args.output}: {error.strerror}") from None
    data = graph.to_json()
    if args.backward:
        record = record_backward(graph, built.root)
        data["backward"] = [{"node": v.node, "op": v.op} for v in record.visits]
        data["grads"] = {
            graph.graph.nodes[n]["label"]: graph.functions[n].variable.grad.tolist()
            for n in graph.nodes_of_kind("accumulate_grad")
            if graph.functions[n].variable.grad is not None
        }
    if args.json:
        print_json(data)
        return 0
    print(f"# {PRESETS[args.preset].code}")
    for node_id, attrs in graph.graph.nodes(data=True):
        detail = node_detail(attrs)
        print(f"{node_id:>6}  {attrs['kind']:<15}  {attrs['label']}  {detail}".rstrip())
    for source, target, attrs in graph.graph.edges(data=True):
        print(f"{source:>6} -> {target}  (output {attrs['output_nr']})")
    if args.backward:
        print("backward order: " + " → ".join(v["op"] for v in data["backward"]))
        for name, grad in data["grads"].items():
            print(f"{name}.grad = {grad}")
    return 0
