"""An optimizer's state named by parameter: `optimizer.state.15.exp_avg_sq` is the second moment
of `transformer.h.2.mlp.c_proj.weight` — when the checkpoint can prove it.

torch's `Optimizer.state_dict()` numbers parameters 0, 1, … in the order of its param_groups;
nothing in the file names them. A checkpoint that holds the model's state dict beside the
optimizer's in one pickle (nanoGPT's {'model', 'optimizer'}, the tutorials' {'model_state_dict',
'optimizer_state_dict'}, Lightning's {'state_dict', 'optimizer_states': [...]}) gives the names,
because every usual way of building the groups — `model.parameters()`, nanoGPT's
decay/no-decay split by dimension, transformers' split by name — keeps each group in the model's
order. So each group's parameters are a subsequence of the state dict's parameters (tied
weights once, integer tensors never; a frozen parameter or a buffer in no group), and the shapes
of the moments must be the parameters' shapes. The names are given only when exactly one such
assignment exists; otherwise the numbers stay and a note says why.
"""

from __future__ import annotations

from collections.abc import Mapping

import torch

from tensorviz.core.files.file_nodes import Node
from tensorviz.core.files.state_keys import holds_weights
from tensorviz.core.files.tree import walk
from tensorviz.core.files.value_reading import value_at
from tensorviz.core.translation import _

MAX_STATES = 200_000  # assignments tried before saying "could not tell"
STEP_KEYS = ("step",)  # a counter, not a tensor of the parameter's shape
TORCH_BUFFERS = ("running_mean", "running_var", "num_batches_tracked")  # BatchNorm's, never params
STORED_APART = ("folder", "index", "dcp")  # files that keep no order between model and optimizer


def name_optimizer_state(result) -> None:
    """Mark every optimizer's state in a FileInspection (Node.optimizer_state), and name it by
    parameter (Node.parameter) where the checkpoint proves the names."""
    if result.root is None:
        return
    for container in walk(result.root):
        if container.kind not in ("dict", "file"):
            continue
        obj = value_at(result.loaded, container.access)
        if not isinstance(obj, Mapping):
            continue
        if _is_optimizer(obj):
            for node in walk(_child(container, "state")):
                node.optimizer_state = True
        if result.format in STORED_APART:
            continue
        models = [key for key, value in obj.items() if holds_weights(value)]
        optimizers = [(key, index) for key, value in obj.items()
                      for index in _optimizer_indices(value)]  # fmt: skip
        if len(models) != 1 or not optimizers:
            continue
        model_node = _child(container, models[0])
        for key, index in optimizers:
            node, optimizer = _child(container, key), obj[key]
            if index is not None:
                node, optimizer = _child(node, index), optimizer[index]
            _name_one(result, model_node, node, optimizer)


def _optimizer_indices(value) -> list:
    """[None] for an optimizer's state dict, its indices for a list of them, else []."""
    if _is_optimizer(value):
        return [None]
    if isinstance(value, list | tuple) and value and all(_is_optimizer(v) for v in value):
        return list(range(len(value)))
    return []


def _is_optimizer(value) -> bool:
    if not isinstance(value, Mapping) or not isinstance(value.get("state"), Mapping):
        return False
    groups = value.get("param_groups")
    return isinstance(groups, list) and all(
        isinstance(g, Mapping) and isinstance(g.get("params"), list) for g in groups
    )


def _child(container: Node, key) -> Node:
    """The node of `container`'s entry `key` (a state dict's node, not one of its groups)."""
    return next(c for c in container.children if c.access[-1:] == (key,))


def _parameters(model_node: Node) -> list[Node]:
    """The tensors of a state dict that can be parameters, in order, each tensor once."""
    seen, found = set(), []
    for node in walk(model_node):
        info = node.tensor
        if node.kind != "tensor" or info is None or not info.plain:
            continue
        if node.state_key.rpartition(".")[2] in TORCH_BUFFERS:
            continue
        dtype = getattr(torch, info.dtype, None)
        if not isinstance(dtype, torch.dtype) or not (dtype.is_floating_point or dtype.is_complex):
            continue
        alias = (info.storage_id, info.storage_offset, info.shape, info.stride)
        if alias not in seen:
            seen.add(alias)
            found.append(node)
    return found


def _name_one(result, model_node: Node, optimizer_node: Node, optimizer: Mapping) -> None:
    where = optimizer_node.state_key
    sizes = [len(group["params"]) for group in optimizer["param_groups"]]
    ids = [p for group in optimizer["param_groups"] for p in group["params"]]
    if ids != list(range(len(ids))) or not optimizer["state"]:
        return  # not numbered as torch numbers them, or no state to name
    parameters = _parameters(model_node)
    if len(parameters) < len(ids):
        result.notes.append(
            _(
                "{where}: its state stays numbered: its param_groups list {n} parameters, the "
                "model's state dict has {m} tensors that can be parameters."
            ).format(where=where, n=len(ids), m=len(parameters))  # fmt: skip
        )
        return
    shapes = {index: _state_shape(state) for index, state in optimizer["state"].items()}
    assignment = _unique_assignment([p.tensor.shape for p in parameters], sizes, shapes)
    if assignment is None:
        result.notes.append(
            _(
                "{where}: its state stays numbered: the shapes of its moments do not tell "
                "which parameter each belongs to."
            ).format(where=where)  # fmt: skip
        )
        return
    below_model = len(model_node.state_key) + 1 if model_node.state_key else 0
    names = {index: parameters[position].state_key[below_model:]
             for index, position in assignment.items()}  # fmt: skip
    for entry in _child(optimizer_node, "state").children:
        index = entry.access[-1]
        if index in names:
            for below in walk(entry):
                below.parameter = names[index]
    result.notes.append(
        _(
            "{where}: its state is named by parameter: the {n} parameters of its param_groups "
            "are the model's state dict's, in its order, and every moment has its parameter's "
            "shape."
        ).format(where=where, n=len(ids))  # fmt: skip
    )


def _state_shape(state) -> tuple | None | bool:
    """The shape every moment of one parameter has; None: no moment says; False: they disagree."""
    if not isinstance(state, Mapping):
        return None
    shapes = {tuple(v.shape) for k, v in state.items()
              if isinstance(v, torch.Tensor) and k not in STEP_KEYS}  # fmt: skip
    if not shapes:
        return None
    return shapes.pop() if len(shapes) == 1 else False


def _unique_assignment(shapes: list, sizes: list[int], state_shapes: dict) -> dict | None:
    """{optimizer index: position in `shapes`} when exactly one way fits: each group takes a
    subsequence of the parameters in order, group g's i-th is index offset[g] + i, a moment's
    shape is its parameter's; parameters in no group are skipped. None: no way, or several."""
    offsets = [sum(sizes[:g]) for g in range(len(sizes))]
    skips = len(shapes) - sum(sizes)
    groups = len(sizes)
    # state: how far each group (and the skipped) got → (ways, up to 2; the state before; group)
    frontier: dict[tuple, tuple[int, tuple | None, int]] = {(0,) * (groups + 1): (1, None, -1)}
    history = []
    tried = 0
    for shape in shapes:
        following: dict[tuple, tuple[int, tuple | None, int]] = {}
        for state, (ways, _before, _group) in frontier.items():
            for group in range(groups + 1):
                if group == groups:
                    if state[group] >= skips:
                        continue
                else:
                    if state[group] >= sizes[group]:
                        continue
                    wanted = state_shapes.get(offsets[group] + state[group])
                    if wanted is False or (wanted is not None and wanted != tuple(shape)):
                        continue
                after = (*state[:group], state[group] + 1, *state[group + 1 :])
                tried += 1
                if tried > MAX_STATES:
                    return None
                known = following.get(after)
                total = min(2, ways + (known[0] if known else 0))
                following[after] = (total, state if known is None else known[1],
                                    group if known is None else known[2])  # fmt: skip
        history.append(following)
        frontier = following
    end = (*sizes, skips)
    if end not in frontier or frontier[end][0] != 1:
        return None
    assignment, state = {}, end
    for position in range(len(shapes) - 1, -1, -1):
        _ways, before, group = history[position][state]
        if group < groups:
            assignment[offsets[group] + before[group]] = position
        state = before
    return assignment
