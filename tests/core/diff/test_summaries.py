"""Rows grouped by layer, a layer's ‖Δ‖/‖A‖ over its tensors as torch computes it for the
concatenated tensors, and the summary line per subtree with numbered blocks folded into a range."""

import pytest
import torch

from tensorviz.core.diff.comparison import compare_sides
from tensorviz.core.diff.sides import side_of_file
from tensorviz.core.diff.summaries import layer_changes, layer_of, percent, summary_lines


def test_layer_of_keys():
    assert layer_of("transformer.h.3.attn.c_attn.weight") == "transformer.h.3"
    assert layer_of("transformer.wte.weight") == "transformer.wte"
    assert layer_of("lm_head.weight") == "lm_head"
    assert layer_of("0.weight") == "0"
    assert layer_of("epoch") == "epoch"


@pytest.fixture
def tuned_pair(tmp_path, gpt_state):
    tuned = {k: v.clone() for k, v in gpt_state.items()}
    torch.manual_seed(3)
    for key in tuned:
        if ".h." in key:
            tuned[key] += 0.01 * torch.randn_like(tuned[key])
    torch.save(gpt_state, tmp_path / "a.pt")
    torch.save(tuned, tmp_path / "b.pt")
    return compare_sides(side_of_file(tmp_path / "a.pt"), side_of_file(tmp_path / "b.pt")), tuned


def test_layer_relative_change_is_torchs_over_the_layer(tuned_pair, gpt_state):
    comparison, tuned = tuned_pair
    layers = {layer.name: layer for layer in layer_changes(comparison)}
    assert list(layers)[:3] == ["transformer.wte", "transformer.wpe", "transformer.h.0"]
    keys = [k for k in gpt_state if k.startswith("transformer.h.4.")]
    a = torch.cat([gpt_state[k].double().flatten() for k in keys])
    b = torch.cat([tuned[k].double().flatten() for k in keys])
    expected = (torch.linalg.vector_norm(b - a) / torch.linalg.vector_norm(a)).item()
    assert layers["transformer.h.4"].relative == pytest.approx(expected, rel=1e-12)
    assert layers["transformer.wte"].relative == 0.0


def test_summary_lines_fold_the_blocks_into_a_range(tuned_pair, gpt_state):
    comparison, tuned = tuned_pair
    block_keys = [k for k in gpt_state if ".h." in k]
    largest = max(
        (torch.linalg.vector_norm(tuned[k].double() - gpt_state[k].double())
         / torch.linalg.vector_norm(gpt_state[k].double())).item()
        for k in block_keys
    )  # fmt: skip
    assert summary_lines(comparison) == [
        f"transformer.wte unchanged; wpe unchanged; h.0–h.11: {len(block_keys)} tensors, "
        f"{len(block_keys)} changed, max relative change {percent(largest)}; "
        "ln_f unchanged (2 tensors)",
        "lm_head unchanged",
    ]


def test_percent_words():
    assert percent(0.021) == "2.1 %"
    assert percent(0.0) == "0 %"
    assert percent(None) == "—"
    assert percent(float("inf")).startswith("∞")
