"""The playground's loss graph for the Autograd area: the model's graph of this moment's
parameters, its backward nodes tagged with the layer of the nn.Sequential that made them."""

import torch

from tensorviz.core.autograd.graph import LeafNames, extract_graph
from tensorviz.core.autograd.module_groups import module_of_nodes
from tensorviz.core.training.data import TrainingConfig
from tensorviz.core.training.network_choices import task_defaults
from tensorviz.core.training.playground_graph import network_loss_graph
from tensorviz.core.training.playground_report import describe_playground
from tensorviz.core.training.playground_trainer import PlaygroundTrainer


def test_the_loss_graph_is_grouped_by_the_layers_that_made_it():
    config = TrainingConfig(**{**task_defaults("circles"), "epochs": 1})
    trainer = PlaygroundTrainer(config)
    trainer.step_epoch()
    state = {k: v.detach().numpy().copy() for k, v in trainer.model.state_dict().items()}
    tensors = network_loss_graph(describe_playground(trainer), state)
    model = trainer.model
    for name, parameter in model.named_parameters():  # the parameters of this moment
        assert torch.equal(tensors[name].detach(), parameter.detach())
    leaves = LeafNames({name: t for name, t in tensors.items() if t.is_leaf and t.requires_grad})
    graph = extract_graph(tensors["loss"], leaves)
    groups = module_of_nodes(graph)
    nodes = graph.graph.nodes
    made = {}  # op → the layers whose forward made one
    for node, (module, _cls) in groups.items():
        if nodes[node]["kind"] == "backward":
            made.setdefault(nodes[node]["op"], set()).add(module)
    linear = {name for name, m in model.named_modules() if isinstance(m, torch.nn.Linear)}
    assert made["AddmmBackward0"] == linear  # by torch's own module names
    loss_ops = {nodes[n]["op"] for n in nodes if n not in groups and nodes[n]["kind"] == "backward"}
    assert type(tensors["loss"].grad_fn).__name__ in loss_ops  # the loss ran outside the model
