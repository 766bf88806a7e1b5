"""Errors learners hit outside single operations (NumPy/Python conversion, nn layers, losses,
autograd, optimizers, state dicts): each is triggered in real torch, explained with the numbers of
the situation, and — where the fix is code — the fix is run to show it really works."""

import pytest
import torch
from error_triggers import explain
from torch import nn
from torch.nn import functional


def test_numpy_of_a_tensor_that_requires_grad():
    w = torch.ones(3, requires_grad=True)
    explained, _ = explain(w.numpy)
    assert explained.kind == "numpy_requires_grad"
    assert "detach().numpy()" in explained.fix
    assert w.detach().numpy().tolist() == w.tolist()


def test_numpy_of_a_tensor_not_on_the_cpu():
    t = torch.ones(2, device="meta")  # no GPU here: meta is another non-CPU device torch refuses
    explained, _ = explain(t.numpy)
    assert explained.kind == "numpy_device" and "meta" in explained.title
    assert ".cpu().numpy()" in explained.fix


@pytest.mark.parametrize("convert", [lambda t: t.item(), float, int])
def test_many_elements_are_not_one_python_number(convert):
    t = torch.arange(6.0)
    explained, _ = explain(lambda: convert(t))
    assert explained.kind == "not_a_scalar"
    if "6 elements" not in explained.torch_message:
        assert "many elements" in explained.explanation
    else:
        assert f"{t.numel()} elements" in explained.explanation
    assert t.sum().item() == float(t.sum())  # the suggested reduction gives one number


def test_if_on_a_tensor_of_booleans():
    t = torch.tensor([1, -1, 2])
    explained, _ = explain(lambda: bool(t > 0))
    assert explained.kind == "ambiguous_bool"
    assert bool((t > 0).all()) is False and bool((t > 0).any()) is True


def test_ragged_nested_lists():
    explained, _ = explain(lambda: torch.tensor([[1, 2, 3], [4]]))
    assert explained.kind == "ragged_list"
    assert "3" in explained.explanation and "1" in explained.explanation


def test_random_normals_need_a_float_dtype():
    explained, _ = explain(lambda: torch.randn(3, dtype=torch.long))
    assert explained.kind == "kernel_dtype" and "Long" in explained.title
    assert torch.randn(3, dtype=torch.float32).dtype == torch.float32


def test_integer_to_a_negative_power():
    t = torch.tensor([2, 4])
    explained, _ = explain(lambda: t**-1)
    assert explained.kind == "negative_integer_power"
    assert torch.equal(t.float() ** -1, torch.tensor([0.5, 0.25]))


def test_conv_input_without_batch_and_channel_dims():
    conv, image = nn.Conv2d(1, 4, 3), torch.randn(28, 28)
    explained, _ = explain(lambda: conv(image.unsqueeze(0).unsqueeze(0).unsqueeze(0)))
    assert explained.kind == "layer_input_dims" and "conv2d" in explained.title
    assert "5-D" in explained.explanation and "(N, C, H, W)" in explained.explanation
    assert conv(image.unsqueeze(0).unsqueeze(0)).shape == (1, 4, 26, 26)  # the fix


def test_conv_channels_mismatch_with_channels_last_images():
    conv, images = nn.Conv2d(3, 8, 3), torch.randn(2, 32, 32, 3)  # (N, H, W, C)
    explained, _ = explain(lambda: conv(images))
    assert explained.kind == "conv_channels"
    assert "in_channels=3" in explained.explanation and "32 at dim 1" in explained.explanation
    assert "permute(0, 3, 1, 2)" in explained.fix
    assert conv(images.permute(0, 3, 1, 2)).shape == (2, 8, 30, 30)


def test_layer_norm_over_the_wrong_last_dim():
    norm, x = nn.LayerNorm(8), torch.randn(2, 5)
    explained, _ = explain(lambda: norm(x))
    assert explained.kind == "layer_norm_shape"
    assert "[8]" in explained.explanation and "[2, 5]" in explained.explanation
    assert nn.LayerNorm(x.shape[-1])(x).shape == x.shape


def test_batch_norm_in_training_with_one_sample():
    bn, x = nn.BatchNorm1d(3), torch.randn(1, 3)
    explained, _ = explain(lambda: bn(x))
    assert explained.kind == "batch_norm_single"
    assert bn.eval()(x).shape == x.shape  # model.eval() is the fix for single samples


def test_class_label_out_of_range():
    logits, labels = torch.randn(3, 10), torch.tensor([1, 2, 10])
    explained, _ = explain(lambda: functional.cross_entropy(logits, labels))
    assert explained.kind == "target_out_of_bounds"
    assert "10" in explained.explanation and "0 … C−1" in explained.explanation


def test_batch_size_mismatch_between_logits_and_targets():
    logits, labels = torch.randn(4, 10), torch.tensor([1, 2, 3])
    explained, _ = explain(lambda: functional.cross_entropy(logits, labels))
    assert explained.kind == "batch_size_mismatch"
    assert f"{logits.shape[0]} predictions" in explained.explanation
    assert f"{labels.shape[0]} targets" in explained.explanation


def test_saved_tensor_changed_in_place_before_backward():
    a = torch.randn(3, requires_grad=True)
    s = a.sigmoid()  # sigmoid saves its result for backward
    s.mul_(2)
    explained, error = explain(lambda: s.sum().backward())
    assert explained.kind == "saved_tensor_modified"
    assert "version 0" in explained.explanation and "version 1" in explained.explanation
    fixed = a.sigmoid()
    (fixed * 2).sum().backward()  # out of place: backward works
    assert torch.allclose(a.grad, 2 * fixed.detach() * (1 - fixed.detach()))


def test_backward_gradient_of_the_wrong_shape():
    x = torch.ones(3, requires_grad=True)
    y = x * 2
    explained, _ = explain(lambda: y.backward(torch.ones(4)))
    assert explained.kind == "gradient_shape"
    assert "[3]" in explained.explanation and "[4]" in explained.explanation
    y.backward(torch.ones_like(y))
    assert torch.equal(x.grad, torch.full((3,), 2.0))


def test_hook_on_a_tensor_outside_any_graph():
    explained, _ = explain(lambda: torch.ones(2).register_hook(lambda g: g))
    assert explained.kind == "hook_without_grad"


def test_assigning_a_grad_of_the_wrong_shape():
    w = torch.ones(2, requires_grad=True)
    explained, _ = explain(lambda: setattr(w, "grad", torch.ones(3)))
    assert explained.kind == "grad_assignment"
    assert "[3]" in explained.explanation and "[2]" in explained.explanation


def test_optimizer_given_an_exhausted_parameter_generator():
    model = nn.Linear(2, 1)
    parameters = model.parameters()
    list(parameters)  # consumed once: the generator is now empty
    explained, _ = explain(lambda: torch.optim.SGD(parameters, lr=0.1))
    assert explained.kind == "empty_optimizer" and "generator" in explained.explanation
    assert len(torch.optim.SGD(model.parameters(), lr=0.1).param_groups[0]["params"]) == 2


def test_dropout_probability_out_of_range():
    explained, _ = explain(lambda: nn.Dropout(1.5))
    assert explained.kind == "bad_probability" and "1.5" in explained.explanation


def test_state_dict_saved_with_other_sizes_and_prefixes():
    saved = {f"module.{k}": v for k, v in nn.Linear(3, 2).state_dict().items()}
    saved["module.weight"] = torch.ones(2, 4)
    explained, _ = explain(lambda: nn.Linear(3, 2).load_state_dict(saved))
    assert explained.kind == "state_dict_mismatch"
    assert "Linear" in explained.explanation and "'module.' prefix" in explained.explanation
    model = nn.Linear(3, 2)
    result = model.load_state_dict(saved, strict=False)  # strict=False reports what did not fit
    assert set(result.unexpected_keys) == set(saved)


def test_max_of_an_empty_tensor():
    explained, _ = explain(lambda: torch.tensor([]).max())
    assert explained.kind == "empty_reduction"


def test_cat_of_different_ranks():
    a, b = torch.ones(2, 2), torch.ones(2)
    explained, _ = explain(lambda: torch.cat([a, b]))
    assert explained.kind == "cat_shape" and "2-D and 1-D" in explained.explanation
    assert torch.cat([a, b.unsqueeze(0)]).shape == (3, 2)
