"""Checkpoint pairs written with torch.save / safetensors, with known changes made to them: the
comparison reports exactly the differences made, its figures equal torch's own computation."""

import weakref

import pytest
import torch
import torch.nn.functional as F  # noqa: N812

from tensorviz.core.diff.comparison import compare_sides
from tensorviz.core.diff.sides import side_of_file
from tensorviz.core.files.formats import save_tensors


def compare_files(path_a, path_b, **options):
    return compare_sides(side_of_file(path_a), side_of_file(path_b), **options)


def rows(comparison) -> dict:
    return {pair.key: pair for pair in comparison.pairs}


def copy_of(state: dict) -> dict:
    return {key: value.clone() for key, value in state.items()}


def test_fine_tuned_copy_reports_exactly_the_changed_tensors(tmp_path, gpt_state):
    tuned = copy_of(gpt_state)
    tuned["lm_head.weight"] = tuned["transformer.wte.weight"]  # still tied
    touched = [k for k in tuned if ".h.3." in k or ".h.7." in k]
    torch.manual_seed(1)
    for key in touched:
        tuned[key] += 1e-3 * torch.randn_like(tuned[key])
    torch.save(gpt_state, tmp_path / "a.pt")
    torch.save(tuned, tmp_path / "b.pt")
    comparison = compare_files(tmp_path / "a.pt", tmp_path / "b.pt")
    found = rows(comparison)
    assert set(found) == set(gpt_state)
    assert {k for k, p in found.items() if p.status == "changed"} == set(touched)
    assert all(p.status == "unchanged" and p.bitwise_equal for k, p in found.items()
               if k not in touched)  # fmt: skip
    for key in touched:
        a, b = gpt_state[key].double().flatten(), tuned[key].double().flatten()
        values = found[key].values
        assert values.max_abs == (b - a).abs().max().item()
        assert values.cosine == pytest.approx(F.cosine_similarity(a, b, dim=0).item(), rel=1e-12)
        assert values.changed == int((a != b).sum())
    assert not comparison.equal and comparison.sharing == [] and comparison.values == []


def test_a_file_compared_with_itself_is_bitwise_equal_everywhere(tmp_path, gpt_state):
    path = tmp_path / "a.pt"
    torch.save({"model": gpt_state, "epoch": 3}, path)
    side = side_of_file(path)
    comparison = compare_sides(side, side)
    assert comparison.equal
    assert all(p.bitwise_equal and p.status == "unchanged" for p in comparison.pairs)
    assert len(comparison.pairs) == len(gpt_state) and comparison.values_compared == 1


def test_identical_contents_in_two_formats_are_equal(tmp_path, gpt_state):
    untied = {k: v.clone() for k, v in gpt_state.items() if k != "lm_head.weight"}
    torch.save(untied, tmp_path / "a.pt")
    save_tensors(untied, tmp_path / "a.safetensors")
    comparison = compare_files(tmp_path / "a.pt", tmp_path / "a.safetensors")
    assert comparison.equal and comparison.count("unchanged") == len(untied)


@pytest.mark.parametrize("prefix", ["module.", "_orig_mod.", "model."])
def test_prefix_renames_are_renames_not_removals(tmp_path, gpt_state, prefix):
    torch.save(gpt_state, tmp_path / "a.pt")
    torch.save({prefix + k: v for k, v in gpt_state.items()}, tmp_path / "b.pt")
    comparison = compare_files(tmp_path / "a.pt", tmp_path / "b.pt")
    assert comparison.count("only_a") == comparison.count("only_b") == 0
    assert comparison.renames == len(gpt_state)
    assert all(p.b.key == prefix + p.a.key and p.status == "unchanged" for p in comparison.pairs)
    # torch's own wrappers (DDP, torch.compile) name the same weights: equal, said so; Lightning's
    # `model.` is the LightningModule's attribute, a key load_state_dict would refuse
    assert comparison.equal == comparison.equal_except_prefixes == (prefix != "model.")
    strict = compare_sides(side_of_file(tmp_path / "a.pt"), side_of_file(tmp_path / "b.pt"),
                           strict_keys=True)  # fmt: skip
    assert not strict.equal and not strict.equal_except_prefixes


def test_lightning_checkpoint_against_the_bare_state_dict(tmp_path, gpt_state):
    lightning = {
        "epoch": 3,
        "global_step": 120,
        "state_dict": {f"model.{k}": v for k, v in gpt_state.items()},
        "hyper_parameters": {"lr": 1e-3, "warmup": 100},
    }
    torch.save(lightning, tmp_path / "a.ckpt")
    torch.save(gpt_state, tmp_path / "b.pt")
    comparison = compare_files(tmp_path / "a.ckpt", tmp_path / "b.pt")
    assert comparison.renames == len(gpt_state) and comparison.count("unchanged") == len(gpt_state)
    assert {v.key for v in comparison.values} == {"epoch", "global_step", "hyper_parameters.lr",
                                                  "hyper_parameters.warmup"}  # fmt: skip
    assert all(v.b is None for v in comparison.values)


def test_plain_values_that_differ(tmp_path):
    weight = torch.ones(2)
    torch.save({"epoch": 3, "lr": 1e-3, "hparams": {"width": 8, "act": "gelu"}, "w": weight},
               tmp_path / "a.pt")  # fmt: skip
    torch.save({"epoch": 12, "lr": 1e-3, "hparams": {"width": 16, "act": "gelu"}, "w": weight},
               tmp_path / "b.pt")  # fmt: skip
    comparison = compare_files(tmp_path / "a.pt", tmp_path / "b.pt")
    assert [(v.key, v.a, v.b) for v in comparison.values] == [
        ("epoch", "3", "12"), ("hparams.width", "8", "16")]  # fmt: skip
    assert comparison.values_compared == 4 and not comparison.equal


def test_bytes_renames_dtype_casts_reshapes_and_dropped_keys(tmp_path, gpt_state):
    b = copy_of(gpt_state)
    b["blocks.5.mlp.weight"] = b.pop("transformer.h.5.mlp.c_fc.weight")  # renamed, same bytes
    b["transformer.wpe.weight"] = b["transformer.wpe.weight"].to(torch.bfloat16)
    b["transformer.h.0.attn.c_attn.weight"] = b["transformer.h.0.attn.c_attn.weight"].reshape(-1)
    del b["transformer.h.11.ln_1.bias"]
    b["extra.scale"] = torch.ones(3)
    torch.save(gpt_state, tmp_path / "a.pt")
    torch.save(b, tmp_path / "b.pt")
    found = rows(compare_files(tmp_path / "a.pt", tmp_path / "b.pt"))
    renamed = found["blocks.5.mlp.weight"]
    assert renamed.matched_by == "bytes" and renamed.a.key == "transformer.h.5.mlp.c_fc.weight"
    assert renamed.status == "unchanged" and renamed.bitwise_equal
    cast = found["transformer.wpe.weight"]
    assert cast.status == "changed" and cast.facts_changed() == ["dtype float32 → bfloat16"]
    a_wpe = gpt_state["transformer.wpe.weight"].double()
    expected = (b["transformer.wpe.weight"].double() - a_wpe).abs().max().item()
    assert cast.values.max_abs == expected and "compared as float64" in cast.notes[0]
    reshaped = found["transformer.h.0.attn.c_attn.weight"]
    assert reshaped.facts_changed() == ["shape [24, 8] → [192]"] and reshaped.values.changed == 0
    assert found["transformer.h.11.ln_1.bias"].status == "only_a"
    assert found["extra.scale"].status == "only_b"
    others = {"blocks.5.mlp.weight", "transformer.wpe.weight", "transformer.h.11.ln_1.bias",
              "transformer.h.0.attn.c_attn.weight", "extra.scale"}  # fmt: skip
    assert all(p.status == "unchanged" for k, p in found.items() if k not in others)


def test_tied_weights_split_and_merged(tmp_path, gpt_state):
    untied = copy_of(gpt_state)  # clone() gives lm_head its own storage
    torch.save(gpt_state, tmp_path / "tied.pt")
    torch.save(untied, tmp_path / "untied.pt")
    split = compare_files(tmp_path / "tied.pt", tmp_path / "untied.pt")
    (change,) = split.sharing
    assert change.kind == "split" and change.parts == 2
    assert set(change.keys_a) == {"transformer.wte.weight", "lm_head.weight"}
    assert split.count("unchanged") == len(gpt_state) and not split.equal
    (merged,) = compare_files(tmp_path / "untied.pt", tmp_path / "tied.pt").sharing
    assert merged.kind == "merged" and set(merged.keys_b) == set(change.keys_a)


def test_nan_injected(tmp_path, gpt_state):
    b = copy_of(gpt_state)
    b["transformer.h.2.mlp.c_fc.weight"][0, :3] = float("nan")
    torch.save(gpt_state, tmp_path / "a.pt")
    torch.save(b, tmp_path / "b.pt")
    pair = rows(compare_files(tmp_path / "a.pt", tmp_path / "b.pt"))[
        "transformer.h.2.mlp.c_fc.weight"]  # fmt: skip
    assert pair.status == "changed" and pair.values.nan_appeared == 3 == pair.values.changed
    assert pair.values.max_abs == 0.0  # the finite elements did not move


def test_two_entries_and_two_subtrees_of_one_file(tmp_path):
    from tensorviz.core.diff.sides import side_of_inspection
    from tensorviz.core.files.inspection import inspect_file

    torch.manual_seed(2)
    encoder = {"0.weight": torch.randn(4, 4), "0.bias": torch.randn(4)}
    decoder = {"0.weight": encoder["0.weight"] * 2, "0.bias": encoder["0.bias"].clone()}
    torch.save({"encoder": encoder, "decoder": decoder}, tmp_path / "m.pt")
    inspection = inspect_file(tmp_path / "m.pt")
    enc, dec = inspection.root.children
    subtrees = compare_sides(
        side_of_inspection(inspection, enc), side_of_inspection(inspection, dec)
    )
    assert {p.key: p.status for p in subtrees.pairs} == {
        "0.weight": "changed",
        "0.bias": "unchanged",
    }
    weight_a, bias_b = inspection.entries[0], inspection.entries[3]
    picked = compare_sides(side_of_inspection(inspection, weight_a),
                           side_of_inspection(inspection, bias_b))  # fmt: skip
    (pair,) = picked.pairs
    assert pair.matched_by == "picked" and pair.facts_changed() == ["shape [4, 4] → [4]"]


def test_each_pair_is_freed_before_the_next_is_read(tmp_path, gpt_state):
    torch.save(gpt_state, tmp_path / "a.pt")
    torch.save(copy_of(gpt_state), tmp_path / "b.pt")
    side_a, side_b = side_of_file(tmp_path / "a.pt"), side_of_file(tmp_path / "b.pt")
    alive: list[weakref.ref] = []
    most = [0]  # refcounting frees a tensor the moment its last reference goes

    def watched(side):
        for key, entry in list(side.tensors.items()):

            def read(entry=entry):
                most[0] = max(most[0], sum(r() is not None for r in alive))
                tensor = entry.read()
                alive.append(weakref.ref(tensor))
                return tensor

            side.tensors[key] = type(entry)(entry.key, entry.file_key, entry.info, read)

    watched(side_a)
    watched(side_b)
    assert compare_sides(side_a, side_b).count("unchanged") == len(gpt_state)
    assert most[0] == 1  # when B's tensor is read, only A's of the same pair is alive


def test_cancel_stops_within_one_tensor(tmp_path, gpt_state):
    torch.save(gpt_state, tmp_path / "a.pt")
    torch.save(copy_of(gpt_state), tmp_path / "b.pt")
    side_a, side_b = side_of_file(tmp_path / "a.pt"), side_of_file(tmp_path / "b.pt")
    reads, cancelled_at = [], []

    def counting(side):
        for key, entry in list(side.tensors.items()):

            def read(entry=entry):
                reads.append(entry.key)
                return entry.read()

            side.tensors[key] = type(entry)(entry.key, entry.file_key, entry.info, read)

    counting(side_a)
    counting(side_b)

    def should_stop() -> bool:
        if len(reads) >= 5 and not cancelled_at:
            cancelled_at.append(len(reads))
        return bool(cancelled_at)

    comparison = compare_sides(side_a, side_b, should_stop=should_stop)
    assert comparison.cancelled and not comparison.equal
    assert len(reads) - cancelled_at[0] <= 1
    assert sum(p.status == "not_compared" for p in comparison.pairs) >= len(gpt_state) - 3


def test_a_file_rewritten_during_the_comparison_stops_with_one_sentence(tmp_path, gpt_state):
    torch.save(gpt_state, tmp_path / "a.pt")
    torch.save(copy_of(gpt_state), tmp_path / "b.pt")
    side_a, side_b = side_of_file(tmp_path / "a.pt"), side_of_file(tmp_path / "b.pt")
    torch.save({"other": torch.zeros(1)}, tmp_path / "b.pt")
    comparison = compare_sides(side_a, side_b)
    assert "b.pt changed on disk" in comparison.error and not comparison.equal


def test_nested_checkpoint_keys_and_entries_without_values(tmp_path):
    weight = torch.randn(3, 3)
    checkpoint = {
        "optimizer_states": [{"state": {0: {"exp_avg": torch.zeros(3)}}, "param_groups": []}],
        "sparse": torch.eye(3).to_sparse(),
        "shape_only": torch.empty(4, 2, device="meta"),
        "w": weight,
    }
    torch.save(checkpoint, tmp_path / "a.pt")
    torch.save(checkpoint, tmp_path / "b.pt")
    comparison = compare_files(tmp_path / "a.pt", tmp_path / "b.pt")
    found = rows(comparison)
    assert set(found) == {"optimizer_states.0.state.0.exp_avg", "sparse", "shape_only", "w"}
    assert found["optimizer_states.0.state.0.exp_avg"].a.file_key == (
        "['optimizer_states'][0]['state'][0]['exp_avg']"
    )
    assert found["shape_only"].status == "unchanged" and "meta" in found["shape_only"].notes[0]
    sparse = found["sparse"]
    assert sparse.status == "not_compared" and "sparse_coo" in sparse.notes[0]
    assert comparison.values_compared == 1  # the empty param_groups list, as a value
    assert not comparison.equal  # a sparse pair's values are unknown: not called equal
