"""The playground's network, built from a TrainingConfig as a real nn.Sequential, with its inputs
(the chosen features of the raw coordinates), its loss and its optimizer — each made by the same
calls, in the same order, as the exported script makes them."""

from __future__ import annotations

import torch
from torch import nn

from tensorviz.core.training.data import TrainingConfig
from tensorviz.core.training.network_choices import ACTIVATIONS, FEATURES, LOSSES


def output_units(config: TrainingConfig, classes: int) -> int:
    """Cross entropy scores every class; mse and bce train one output."""
    return classes if config.loss == "ce" else 1


def input_features(x: torch.Tensor, features: tuple[str, ...]) -> torch.Tensor:
    """The network's input columns: each feature of a = x[:, 0:1] (and b = x[:, 1:2])."""
    a = x[:, 0:1]
    b = x[:, 1:2] if x.shape[1] > 1 else None
    return torch.cat([FEATURES[name].compute(a, b) for name in features], dim=1)


def layer_specs(config: TrainingConfig, classes: int) -> list[tuple[str, tuple]]:
    """The modules of the nn.Sequential, in order, as (nn class name, arguments)."""
    specs: list[tuple[str, tuple]] = []
    width = len(config.features)
    for units, activation in zip(config.hidden_layers, config.activations, strict=True):
        specs.append(("Linear", (width, units)))
        if ACTIVATIONS[activation][1] is not None:
            specs.append((ACTIVATIONS[activation][1], ()))
        if config.dropout > 0:
            specs.append(("Dropout", (config.dropout,)))
        width = units
    specs.append(("Linear", (width, output_units(config, classes))))
    return specs


def build_network(config: TrainingConfig, classes: int) -> nn.Sequential:
    """The nn.Sequential of `config`, initialised from torch's global generator (seed it first,
    as the trainer and the script do with torch.manual_seed(seed))."""
    return nn.Sequential(*(getattr(nn, name)(*args) for name, args in layer_specs(config, classes)))


def make_loss(config: TrainingConfig) -> nn.Module:
    return getattr(nn, LOSSES[config.loss][1])()


def make_optimizer(config: TrainingConfig, model: nn.Module) -> torch.optim.Optimizer:
    if config.update_style == "sgd":
        return torch.optim.SGD(
            model.parameters(),
            lr=config.lr,
            momentum=config.momentum,
            weight_decay=config.weight_decay,
        )
    return torch.optim.Adam(model.parameters(), lr=config.lr, weight_decay=config.weight_decay)


def linear_layers(model: nn.Sequential) -> list[nn.Linear]:
    return [module for module in model if isinstance(module, nn.Linear)]


def l2_penalty(model: nn.Sequential) -> torch.Tensor:
    """Σ ‖W‖² over the Linear layers' weights (biases are not penalised)."""
    return sum((layer.weight * layer.weight).sum() for layer in linear_layers(model))


def hidden_outputs(model: nn.Sequential, inputs: torch.Tensor) -> list[torch.Tensor]:
    """What each hidden layer hands on, (samples, units) per layer: the output of its
    activation (its Linear's output when it has none), before dropout. Call it under no_grad in
    eval mode; the last module's output (the network's) is the last entry."""
    outputs = []
    value = inputs
    modules = list(model)
    for index, module in enumerate(modules):
        value = module(value)
        following = modules[index + 1] if index + 1 < len(modules) else None
        ends_layer = following is None or isinstance(following, nn.Linear | nn.Dropout)
        if ends_layer and not isinstance(module, nn.Dropout):
            outputs.append(value)
    return outputs


def output_scores(config: TrainingConfig, output: torch.Tensor) -> torch.Tensor:
    """Each output unit as the number it stands for: a probability (sigmoid for bce, softmax
    over the classes for ce) or, for mse, the output itself."""
    if config.loss == "bce":
        return torch.sigmoid(output)
    if config.loss == "ce":
        return torch.softmax(output, dim=1)
    return output


def score(config: TrainingConfig, output: torch.Tensor) -> torch.Tensor:
    """The network's answer per sample: the probability of class 1 (mse: the output itself)
    for classification, the predicted y for regression."""
    return output_scores(config, output)[:, -1]


def predicted_class(config: TrainingConfig, output: torch.Tensor) -> torch.Tensor:
    if config.loss == "ce":
        return output.argmax(dim=1)
    threshold = 0.0 if config.loss == "bce" else 0.5
    return (output[:, 0] > threshold).long()
