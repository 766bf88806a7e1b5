"""One GPT-2's weights in the five containers the tools write (save_pretrained's safetensors and
.bin, each whole and sharded with an index, and a plain torch.save of the state dict) compare as
the same weights, pair by pair: tensors pair by their state-dict keys, the tied lm_head that
safetensors saves once is the tied weight it is, a folder's config.json and a file's metadata are
not differences against a container that has none. Byte-identical renames are offered only
between keys one side alone has, never for constants (zero biases, LayerNorm ones)."""

import itertools
import sys
from pathlib import Path

import pytest
import torch

from tensorviz.core.diff.comparison import compare_sides
from tensorviz.core.diff.report import overall_line
from tensorviz.core.diff.sides import side_of_file

sys.path.insert(0, str(Path(__file__).parents[2]))
from checkpoint_containers import TIED, five_containers, gpt2_model  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")  # torch.jit's own
PAIRS = list(itertools.combinations(
    ["safetensors", "safetensors-sharded", "bin", "bin-sharded", "pt"], 2))  # fmt: skip


@pytest.fixture(scope="module")
def containers(tmp_path_factory):
    return five_containers(tmp_path_factory.mktemp("containers"))


@pytest.mark.parametrize(("a", "b"), PAIRS, ids=[f"{a}-vs-{b}" for a, b in PAIRS])
def test_every_pair_of_containers_is_the_same_weights(containers, a, b):
    state = gpt2_model().state_dict()
    comparison = compare_sides(side_of_file(containers[a]), side_of_file(containers[b]))
    assert comparison.equal, overall_line(comparison)
    assert "Verdict: equal." in overall_line(comparison)
    rows = {pair.key: pair for pair in comparison.pairs}
    safetensors = [name.startswith("safetensors") for name in (a, b)]
    saved_once = safetensors[0] != safetensors[1]  # one side saves lm_head, tied, the other not
    # every state-dict key, once, under its own name (safetensors files both lack the tied key)
    assert set(rows) == set(state) - ({TIED} if all(safetensors) else set())
    for key, pair in rows.items():
        assert pair.status == "unchanged" and pair.bitwise_equal, key
        assert not pair.counts_as_rename, key
        assert (pair.a.key, pair.b.key) in ((key, key), (key, "transformer.wte.weight"),
                                            ("transformer.wte.weight", key))  # fmt: skip
    tied = [pair for pair in comparison.pairs if pair.matched_by == "tied"]
    assert [pair.key for pair in tied] == ([TIED] if saved_once else [])
    assert comparison.renames == 0 and comparison.values == [] and comparison.sharing == []


def test_keys_are_state_dict_keys_with_the_file_beside(containers):
    side = side_of_file(containers["bin-sharded"])
    state = gpt2_model().state_dict()
    assert list(side.tensors) == list(state)
    shards = {entry.source for entry in side.tensors.values()}
    assert shards == {"pytorch_model-00001-of-00002.bin", "pytorch_model-00002-of-00002.bin"}
    assert side.tensors["transformer.wte.weight"].file_key.startswith(
        "['pytorch_model.bin.index.json']"
    )  # the way to reach it in the folder, as before
    whole = side_of_file(containers["safetensors"])
    assert set(whole.tensors) == set(state) - {TIED}
    assert {e.source for e in whole.tensors.values()} == {"model.safetensors"}


def test_renames_by_identical_bytes_never_pair_constants(tmp_path):
    state = gpt2_model().state_dict()
    renamed = dict(state)
    # a zero bias and a random weight renamed (their module renamed): only the weight's bytes
    # are evidence; the zero bias has the bytes of every other zero bias of the model
    renamed["blocks.0.proj.bias"] = renamed.pop("transformer.h.0.attn.c_proj.bias")
    renamed["blocks.0.proj.weight"] = renamed.pop("transformer.h.0.attn.c_proj.weight")
    assert not state["transformer.h.0.attn.c_proj.bias"].any()
    torch.save(state, tmp_path / "a.pt")
    torch.save(renamed, tmp_path / "b.pt")
    comparison = compare_sides(side_of_file(tmp_path / "a.pt"), side_of_file(tmp_path / "b.pt"))
    rows = {pair.key: pair for pair in comparison.pairs}
    weight = rows["blocks.0.proj.weight"]
    assert weight.matched_by == "bytes" and weight.a.key == "transformer.h.0.attn.c_proj.weight"
    assert rows["transformer.h.0.attn.c_proj.bias"].status == "only_a"
    assert rows["blocks.0.proj.bias"].status == "only_b"
    # keys both sides have pair by name, whatever other keys hold the same bytes
    assert rows["transformer.h.0.ln_1.bias"].a.key == "transformer.h.0.ln_1.bias"
    assert rows["transformer.h.0.ln_1.bias"].b.key == "transformer.h.0.ln_1.bias"
    assert comparison.renames == 1 and not comparison.equal


def test_a_model_pickled_whole_and_a_torchscript_archive_have_state_dict_keys(tmp_path):
    model = gpt2_model()
    torch.save(model, tmp_path / "whole.pt")
    torch.save(model.state_dict(), tmp_path / "state.pt")
    whole = side_of_file(tmp_path / "whole.pt")
    assert set(whole.tensors) == set(model.state_dict())
    assert whole.tensors["transformer.h.0.ln_1.weight"].file_key == ".transformer.h.0.ln_1.weight"
    comparison = compare_sides(whole, side_of_file(tmp_path / "state.pt"))
    assert all(p.status == "unchanged" and not p.renamed for p in comparison.pairs)
    assert len(comparison.pairs) == len(model.state_dict())

    net = torch.nn.Sequential(torch.nn.Conv2d(1, 2, 3), torch.nn.Flatten(), torch.nn.Linear(8, 2))
    torch.jit.script(net).save(str(tmp_path / "scripted.pt"))
    scripted = side_of_file(tmp_path / "scripted.pt")
    assert set(scripted.tensors) == set(torch.jit.load(str(tmp_path / "scripted.pt")).state_dict())
    torch.save(net.state_dict(), tmp_path / "net.pt")
    comparison = compare_sides(scripted, side_of_file(tmp_path / "net.pt"))
    assert {p.key for p in comparison.pairs} == set(net.state_dict())
    assert all(p.status == "unchanged" and not p.renamed for p in comparison.pairs)


def test_compiled_and_ddp_keys_are_equal_except_their_prefixes(tmp_path):
    model = gpt2_model()
    compiled = torch.compile(model)  # its state dict: every key under _orig_mod.
    torch.save(compiled.state_dict(), tmp_path / "compiled.pt")
    wrapped = torch.nn.DataParallel(model)  # DDP's module. prefix, without a process group
    torch.save(wrapped.state_dict(), tmp_path / "ddp.pt")
    torch.save(model.state_dict(), tmp_path / "eager.pt")
    assert next(iter(compiled.state_dict())).startswith("_orig_mod.")
    for other, prefix in (("compiled.pt", "_orig_mod."), ("ddp.pt", "module.")):
        comparison = compare_sides(side_of_file(tmp_path / "eager.pt"),
                                   side_of_file(tmp_path / other))  # fmt: skip
        assert comparison.equal and comparison.equal_except_prefixes
        assert comparison.wrapper_prefixes() == ([], [prefix])
        assert f"Verdict: equal except key prefixes ({prefix} in B)." in overall_line(comparison)
    both = compare_sides(side_of_file(tmp_path / "compiled.pt"), side_of_file(tmp_path / "ddp.pt"))
    assert both.equal_except_prefixes and both.wrapper_prefixes() == (["_orig_mod."], ["module."])
    tuned = model.state_dict()
    tuned["transformer.wpe.weight"] = tuned["transformer.wpe.weight"] + 1e-3
    torch.save(tuned, tmp_path / "tuned.pt")
    differs = compare_sides(side_of_file(tmp_path / "compiled.pt"),
                            side_of_file(tmp_path / "tuned.pt"))  # fmt: skip
    assert not differs.equal and not differs.equal_except_prefixes
