"""What the playground's live pictures show of a network at one moment, computed from any copy
of it: its answer over the input plane (the decision boundary, or the fitted function), every
hidden neuron's output on the tile grid, and the weights — as NumPy arrays.

The picturer evaluates in eval mode under no_grad on a model it is handed: the trainer's own
(for `tensorviz` tests and the CLI) or a CPU copy holding a snapshot of its parameters (the GUI
paints from a thread of its own, so the training loop only copies the parameters).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from tensorviz.core.training.data import TrainingConfig
from tensorviz.core.training.network import (
    hidden_outputs,
    input_features,
    output_scores,
    score,
)
from tensorviz.core.training.network_picture import NetworkLayout, grid_points

BOUNDARY_GRID = 100  # the decision boundary / fitted function: 100 × 100 (or 100 points of x)


@dataclass(frozen=True)
class NetworkPictures:
    """The pictures' data, float32 unless noted. 2-D tasks: maps are [y index, x index] over
    the plane; 1-D tasks: [x index]."""

    epoch: int
    score: np.ndarray  # the answer over BOUNDARY_GRID (probability of class 1, or predicted y)
    neurons: tuple[np.ndarray, ...]  # per hidden layer: (units, g, g) or (units, g)
    output: np.ndarray  # each output unit's score on the neuron grid: (units, g, g) / (units, g)
    weights: tuple[np.ndarray, ...]  # per Linear layer: (out, in)
    grad_norms: tuple[float, ...]
    state: dict[str, np.ndarray]  # the state_dict (weights and biases), copied


def state_arrays(model: torch.nn.Module) -> dict[str, np.ndarray]:
    """The model's state_dict as NumPy copies (off the device, detached)."""
    return {k: v.detach().cpu().numpy().copy() for k, v in model.state_dict().items()}


class Picturer:
    """The input grids of one experiment (features computed once), and the pictures of a model
    on them."""

    def __init__(
        self,
        config: TrainingConfig,
        plane: tuple[float, float, float, float],
        layout: NetworkLayout,
        dims: int,
        device: torch.device | str = "cpu",
    ) -> None:
        self.config, self.layout, self.dims = config, layout, dims
        fine = grid_points(plane, BOUNDARY_GRID, dims)
        coarse = grid_points(plane, layout.tile, dims)
        self.fine = input_features(fine, config.features).to(device)
        self.coarse = input_features(coarse, config.features).to(device)

    def feature_maps(self) -> np.ndarray:
        """Each input feature over the tile grid: (features, g, g) or (features, g)."""
        coarse = self.coarse.cpu()
        return coarse.T.reshape(coarse.shape[1], *self._tile_shape()).numpy()

    def _tile_shape(self) -> tuple[int, ...]:
        tile = self.layout.tile
        return (tile, tile) if self.dims == 2 else (tile,)

    def pictures(
        self,
        model: torch.nn.Sequential,
        epoch: int,
        grad_norms: tuple[float, ...],
        state: dict[str, np.ndarray] | None = None,
    ) -> NetworkPictures:
        """The pictures of `model` (its training mode is restored; nothing else is touched).
        state: the model's state_dict as NumPy, when the caller has it already."""
        fine = BOUNDARY_GRID
        shape = (fine, fine) if self.dims == 2 else (fine,)
        tile_shape = self._tile_shape()
        was_training = model.training
        model.eval()
        with torch.no_grad():
            answer = score(self.config, model(self.fine)).reshape(shape)
            outputs = hidden_outputs(model, self.coarse)
            neurons = [o.T.reshape(o.shape[1], *tile_shape) for o in outputs[:-1]]
            last = output_scores(self.config, outputs[-1])
            output = last.T.reshape(last.shape[1], *tile_shape)
            arrays = [a.float().cpu().numpy() for a in (answer, output, *neurons)]
        model.train(was_training)
        state = state_arrays(model) if state is None else state
        linear = [i for i, m in enumerate(model) if isinstance(m, torch.nn.Linear)]
        return NetworkPictures(
            epoch=epoch,
            score=arrays[0],
            output=arrays[1],
            neurons=tuple(arrays[2:]),
            weights=tuple(state[f"{index}.weight"] for index in linear),
            grad_norms=grad_norms,
            state=state,
        )
