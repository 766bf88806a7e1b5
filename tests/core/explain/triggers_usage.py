"""Claim checks for the usage rules: tensors to Python and NumPy, kernels per dtype, nn layers,
losses, autograd bookkeeping, optimizers and state dicts."""

import torch
from claim_checks import explained_by, fix_runs, said, trigger
from torch import nn
from torch.nn import functional

# --- tensors to Python and NumPy ------------------------------------------------------------


@trigger("numpy_requires_grad")
def numpy_of_a_tensor_that_requires_grad():
    w = torch.ones(3, requires_grad=True)
    case = explained_by(w.numpy, "numpy", [w])
    array = fix_runs(case, "t.detach().numpy()", {"t": w})
    array[0] = 7  # "the array shares t's memory"
    assert w[0].item() == 7
    return case


@trigger("numpy_device")
def numpy_of_a_meta_tensor():
    t = torch.ones(2, device="meta")  # no GPU here: meta is a non-CPU device torch refuses too
    case = explained_by(t.numpy, "numpy", [t])
    assert "meta" in case.explained.title
    assert fix_runs(case, "t.detach().cpu().numpy()", {"t": torch.ones(2)}).shape == (2,)
    return case


@trigger("not_a_scalar")
def item_of_many_elements():
    t = torch.arange(6.0)
    case = explained_by(t.item, "item", [t])
    assert said(f"has {t.numel()} elements", f"有 {t.numel()} 个元素") in case.explained.explanation
    assert fix_runs(case, "t.sum().item()", {"t": t}) == 15.0
    assert fix_runs(case, "t.tolist()", {"t": t}) == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    return case


@trigger("not_a_scalar")
def float_of_many_elements():
    t = torch.arange(6.0)
    case = explained_by(lambda: float(t), None, [t])
    many = said("many elements", "很多元素")
    assert many in case.explained.explanation  # torch gives no count here
    assert fix_runs(case, "t[0].item()", {"t": t}) == 0.0
    return case


@trigger("ambiguous_bool")
def if_on_many_booleans():
    t = torch.tensor([1, -1, 2])
    case = explained_by(lambda: bool(t > 0), None, [t, t > 0])
    assert fix_runs(case, "(a > 0).all()", {"a": t}).item() is False
    assert fix_runs(case, "(a > 0).any()", {"a": t}).item() is True
    return case


@trigger("ragged_list")
def ragged_nested_lists():
    case = explained_by(lambda: torch.tensor([[1, 2, 3], [4]]))
    lengths = said("first has 3 items, a later one 1", "第一个有 3 项，后面某个有 1 项")
    assert lengths in case.explained.explanation
    padded = nn.utils.rnn.pad_sequence([torch.tensor([1, 2, 3]), torch.tensor([4])], True)
    assert padded.shape == (2, 3)  # pad_sequence makes the rectangle
    return case


# --- kernels per dtype ------------------------------------------------------------------------


@trigger("kernel_dtype")
def random_normals_of_integers():
    case = explained_by(lambda: torch.randn(3, dtype=torch.long), "randn", dtypes=[torch.int64])
    assert "Long" in case.explained.title
    assert said("need floating point", "需要浮点") in case.explained.explanation
    assert torch.randn(3, dtype=torch.float32).dtype == torch.float32
    assert torch.randint(0, 5, (3,)).dtype == torch.int64  # "torch.randint for integers"
    case.dtypes.add(torch.float32)
    return case


@trigger("kernel_dtype")
def half_kernel_missing_on_the_cpu():
    h = torch.eye(3).half()
    case = explained_by(lambda: torch.linalg.cholesky(h), "cholesky", [h])
    assert "Half" in case.explained.title
    assert said("need floating point", "需要浮点") not in case.explained.explanation
    assert h.is_floating_point()  # Half IS floating point: the CPU lacks this kernel for it
    fixed = torch.linalg.cholesky(h.float())  # "compute this step in float32"
    assert fixed.dtype == torch.float32 and fixed.to(torch.float16).dtype == torch.float16
    case.dtypes.add(torch.float32)
    return case


@trigger("negative_integer_power")
def integer_to_a_negative_power():
    t = torch.tensor([2, 4])
    case = explained_by(lambda: t**-1, None, [t])
    assert torch.equal(fix_runs(case, "t.float() ** -1", {"t": t}), torch.tensor([0.5, 0.25]))
    return case


# --- nn layers --------------------------------------------------------------------------------


@trigger("layer_input_dims")
def conv_input_with_too_many_dims():
    conv, image = nn.Conv2d(1, 4, 3), torch.randn(28, 28)
    five = image[None, None, None]
    case = explained_by(lambda: conv(five), None, [five])
    assert "conv2d" in case.explained.title and "5-D" in case.explained.explanation
    case.sizes |= {(1, 1, 28, 28), (28, 28)}
    made = fix_runs(case, "x.unsqueeze(0).unsqueeze(0)", {"x": image})
    assert made.shape == (1, 1, 28, 28) and conv(made).shape == (1, 4, 26, 26)
    return case


@trigger("conv_channels")
def channels_last_images():
    conv, images = nn.Conv2d(3, 8, 3), torch.randn(2, 32, 32, 3)  # (N, H, W, C)
    case = explained_by(lambda: conv(images), None, [images], sizes=[conv.weight.shape])
    assert "in_channels=3" in case.explained.explanation
    assert said("32 at dim 1", "第 1 维是 32") in case.explained.explanation
    fixed = fix_runs(case, "x.permute(0, 3, 1, 2)", {"x": images})
    assert conv(fixed).shape == (2, 8, 30, 30)
    return case


@trigger("layer_norm_shape")
def layer_norm_over_the_wrong_last_dim():
    norm, x = nn.LayerNorm(8), torch.randn(2, 5)
    case = explained_by(lambda: norm(x), None, [x], sizes=[norm.normalized_shape])
    assert nn.LayerNorm(x.shape[-1])(x).shape == x.shape  # "the input's last size"
    return case


@trigger("batch_norm_single")
def batch_norm_of_one_sample():
    bn, x = nn.BatchNorm1d(3), torch.randn(1, 3)
    case = explained_by(lambda: bn(x), None, [x])
    assert bn.eval()(x).shape == x.shape  # model.eval() is the fix for single samples
    assert nn.BatchNorm1d(3)(torch.randn(2, 3)).shape == (2, 3)  # "a batch of ≥ 2"
    return case


# --- losses -----------------------------------------------------------------------------------


@trigger("target_out_of_bounds")
def class_label_out_of_range():
    logits, labels = torch.randn(3, 10), torch.tensor([1, 2, 10])
    case = explained_by(lambda: functional.cross_entropy(logits, labels), None, [logits, labels])
    assert said("and 10 is not one of them", "而 10 不在其中") in case.explained.explanation
    assert functional.cross_entropy(logits, labels - 1).dim() == 0  # shifted 1-based labels
    return case


@trigger("batch_size_mismatch")
def logits_and_targets_differ():
    logits, labels = torch.randn(4, 10), torch.tensor([1, 2, 3])
    case = explained_by(lambda: functional.cross_entropy(logits, labels), None, [logits, labels])
    predictions, targets = logits.shape[0], labels.shape[0]
    assert said(f"{predictions} predictions", f"{predictions} 个预测") in case.explained.explanation
    assert said(f"{targets} targets", f"{targets} 个目标") in case.explained.explanation
    return case


# --- autograd bookkeeping ---------------------------------------------------------------------


@trigger("saved_tensor_modified")
def saved_result_changed_in_place():
    a = torch.randn(3, requires_grad=True)
    s = a.sigmoid()  # sigmoid saves its result for backward
    s.mul_(2)
    case = explained_by(lambda: s.sum().backward(), None, [s], sizes=[(3,)])
    assert said("at version 0", "版本 0") in case.explained.explanation
    assert said("version 1", "版本 1") in case.explained.explanation
    fixed = a.sigmoid()
    (fixed * 2).sum().backward()  # "x = x * 2 instead of x *= 2": backward works
    assert torch.allclose(a.grad, 2 * fixed.detach() * (1 - fixed.detach()))
    return case


@trigger("gradient_shape")
def gradient_of_the_wrong_shape():
    x = torch.ones(3, requires_grad=True)
    y = x * 2
    case = explained_by(lambda: y.backward(torch.ones(4)), None, [y], sizes=[(4,)])
    y.backward(fix_runs(case, "torch.ones_like(output)", {"output": y}))
    assert torch.equal(x.grad, torch.full((3,), 2.0))
    return case


@trigger("hook_without_grad")
def hook_outside_any_graph():
    t = torch.ones(2)
    case = explained_by(lambda: t.register_hook(lambda g: g), None, [t])
    t.requires_grad_(True)
    t.register_hook(lambda g: g)  # with requires_grad=True the hook registers
    return case


@trigger("grad_assignment")
def grad_of_the_wrong_shape():
    w = torch.ones(2, requires_grad=True)
    case = explained_by(lambda: setattr(w, "grad", torch.ones(3)), None, [w], sizes=[(3,)])
    w.grad = fix_runs(case, "torch.zeros_like(t)", {"t": w})
    return case


# --- optimizers, modules, state dicts, reductions, cat ----------------------------------------


@trigger("empty_optimizer")
def exhausted_parameter_generator():
    model = nn.Linear(2, 1)
    parameters = model.parameters()
    list(parameters)  # consumed once: the generator is now empty
    case = explained_by(lambda: torch.optim.SGD(parameters, lr=0.1))
    assert said("generator", "生成器") in case.explained.explanation
    assert len(torch.optim.SGD(model.parameters(), lr=0.1).param_groups[0]["params"]) == 2
    return case


@trigger("probability")
def dropout_probability_out_of_range():
    case = explained_by(lambda: nn.Dropout(1.5))
    assert said("got 1.5", "这里是 1.5") in case.explained.explanation
    assert nn.Dropout(0.5).p == 0.5
    return case


@trigger("state_dict")
def checkpoint_of_other_sizes_and_prefixes():
    saved = {f"module.{k}": v for k, v in nn.Linear(3, 2).state_dict().items()}
    saved["module.weight"] = torch.ones(2, 4)
    case = explained_by(lambda: nn.Linear(3, 2).load_state_dict(saved))
    assert "Linear" in case.explained.explanation
    assert said("'module.' prefix", "'module.' 前缀") in case.explained.explanation
    result = nn.Linear(3, 2).load_state_dict(saved, strict=False)  # strict=False reports the rest
    assert set(result.unexpected_keys) == set(saved)
    stripped = {k.removeprefix("module."): v for k, v in saved.items()}
    nn.Linear(4, 2).load_state_dict(stripped)  # built with the saved sizes, prefix stripped
    return case


@trigger("empty_reduction")
def max_of_nothing():
    t = torch.tensor([])
    case = explained_by(t.max, "max", [t])
    assert t.numel() == 0
    return case


@trigger("cat_dims")
def cat_of_different_ranks():
    a, b = torch.ones(2, 2), torch.ones(2)
    case = explained_by(lambda: torch.cat([a, b]), "cat", [a, b])
    assert said("2-D and 1-D", "2-D 和 1-D") in case.explained.explanation
    assert torch.cat([a, fix_runs(case, "t.unsqueeze(0)", {"t": b})]).shape == (3, 2)
    return case
