"""Folding finds exactly the repeated blocks of GPT-2-, BERT- and T5-shaped models (written in
tests/model_shapes.py with nn layers): the ModuleList blocks, and for T5 every block but the
first, which alone computes the relative attention bias."""

import torch
from model_shapes import BertModel, GPT2LMHeadModel, T5Model
from torch import nn

from tensorviz.core.forward.folding import find_folds, subtree
from tensorviz.core.forward.recording import record_forward


def _folds(model, *args):
    record = record_forward(model, args)
    return record, [
        (f.class_name, [record.calls[c].module for c in f.members]) for f in find_folds(record)
    ]


def test_gpt2_folds_its_blocks_and_nothing_else():
    torch.manual_seed(0)
    _, folds = _folds(GPT2LMHeadModel(layers=5), torch.randint(0, 100, (2, 6)))
    assert folds == [("GPT2Block", [f"transformer.h.{i}" for i in range(5)])]


def test_bert_folds_encoder_layers_but_not_parallel_query_key_value():
    torch.manual_seed(0)
    record, folds = _folds(BertModel(layers=3), torch.randint(0, 100, (2, 6)), torch.ones(2, 6))
    assert folds == [("BertLayer", ["encoder.layer.0", "encoder.layer.1", "encoder.layer.2"])]


def test_t5_folds_every_block_after_the_first_in_both_stacks():
    torch.manual_seed(0)
    _, folds = _folds(
        T5Model(layers=4), torch.randint(0, 100, (2, 6)), torch.randint(0, 100, (2, 3))
    )
    assert sorted(folds) == [
        ("T5Block", ["decoder.block.1", "decoder.block.2", "decoder.block.3"]),
        ("T5Block", ["encoder.block.1", "encoder.block.2", "encoder.block.3"]),
    ]


def test_a_cell_called_once_per_step_folds_and_members_map_onto_the_first():
    torch.manual_seed(0)
    cell = nn.GRUCell(3, 5)

    def unroll(steps):
        h = torch.zeros(2, 5)
        for step in steps:
            h = cell(step, h)
        return h

    record = record_forward(unroll, (torch.randn(4, 2, 3),), modules={"cell": cell})
    (fold,) = find_folds(record)
    assert fold.label == "GRUCell × 4" and fold.names == "cell … cell (call 4)"
    first_nodes = subtree(record, fold.members[0])[0]
    for member in fold.members[1:]:
        for node in subtree(record, member)[0]:
            twin = record.nodes[fold.counterpart[node]]
            assert twin.id in first_nodes and twin.label == record.nodes[node].label


def test_different_shapes_do_not_fold():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 4), nn.Linear(4, 3))
    _, folds = _folds(model, torch.randn(2, 4))
    assert folds == [("Linear", ["0", "1"])]
