"""The playground model's loss as a fresh autograd graph (for the Autograd graph area) and the
model itself with an example input (the hook for an architecture view): a CPU copy of the
network with the parameters of the moment, run on the training samples."""

from __future__ import annotations

import numpy as np
import torch

from tensorviz.core.forward.module_tags import tagging_modules
from tensorviz.core.training.datasets import targets_for_loss
from tensorviz.core.training.network import input_features, make_loss
from tensorviz.core.training.playground_report import PlaygroundInfo, rebuilt_model


def current_model(
    info: PlaygroundInfo, state: dict[str, np.ndarray]
) -> tuple[torch.nn.Sequential, torch.Tensor]:
    """(the nn.Sequential with parameters `state`, on the CPU; its inputs: the training samples'
    features) — what an architecture view needs to run the model itself."""
    model = rebuilt_model(info.config, state)
    x = torch.from_numpy(info.points[info.train]).float()
    return model, input_features(x, info.config.features)


def network_loss_graph(info: PlaygroundInfo, state: dict[str, np.ndarray]) -> dict:
    """The named tensors a plain script has after its forward and loss lines: the parameters
    (leaves that require grad, by their state_dict names), x, y, output and loss (whose grad_fn
    graph is the model's)."""
    model, x = current_model(info, state)
    y = targets_for_loss(info.targets[info.train], info.config.loss)
    with tagging_modules():  # the Autograd graph can group it by layer ("0 · Linear")
        output = model(x)
    loss = make_loss(info.config)(output, y)
    tensors: dict = {name: p for name, p in model.named_parameters()}
    tensors.update({"x": x, "y": y, "output": output, "loss": loss})
    return tensors


def add_network_graph_to_workspace(workspace, tensors: dict, loss_name: str) -> str:
    """Put the tensors of `network_loss_graph` in the workspace as one undoable step, each with
    the line that made it; returns the loss's name. loss_name: the nn class of the loss."""
    from tensorviz.core.tensors.workspace import Provenance, WorkspaceEntry

    names = {key: workspace.suggest_name(f"net_{key.replace('.', '_')}") for key in tensors}
    parameters = [key for key in tensors if key not in ("x", "y", "output", "loss")]
    n = names
    made = {key: Provenance("training", f"model.{key} (nn.Parameter)") for key in parameters}
    made.update(
        {
            "x": Provenance("training data", "input_features(x_train)"),
            "y": Provenance("training data", "y_train"),
            "output": Provenance(
                "forward", f"model({n['x']})", (n["x"], *(n[k] for k in parameters))
            ),
            "loss": Provenance(
                "loss", f"nn.{loss_name}()({n['output']}, {n['y']})", (n["output"], n["y"])
            ),
        }
    )
    entries = [WorkspaceEntry(names[key], tensors[key], made[key]) for key in made]
    workspace.add(entries, f"network loss graph from training ({names['loss']})")
    return names["loss"]
