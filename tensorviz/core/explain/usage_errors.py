"""Explanations for the torch errors learners meet outside single operations: converting tensors
to Python and NumPy, nn layers (conv, LayerNorm, BatchNorm), losses and class targets, autograd
version counters and hooks, optimizers and state dicts.

The contract of an explainer is in rules.py; numbers come from torch's own message.
"""

from __future__ import annotations

from tensorviz.core.explain.rules import Rule, clauses, rule_into
from tensorviz.core.translation import _

USAGE_RULES: list[Rule] = []  # in definition order: the first match wins
_rule = rule_into(USAGE_RULES)


# --- tensors to Python and NumPy -------------------------------------------------------------


@_rule(r"Can't call numpy\(\) on Tensor that requires grad")
def explain_numpy_requires_grad(match, op, tensors, params):
    why = _(
        "NumPy knows nothing of autograd: an array made from this tensor would silently drop "
        "it from the graph, so torch asks you to say so."
    )
    fix = _("t.detach().numpy() (add .cpu() first for a GPU tensor); the array shares t's memory")
    return "numpy_requires_grad", _("numpy() on a tensor that requires grad"), why, fix


@_rule(r"can't convert (?P<device>[\w:]+) device type tensor to numpy")
def explain_numpy_device(match, op, tensors, params):
    device = match["device"]
    why = _(
        "The tensor lives on {device}; a NumPy array can only view CPU memory, so the data "
        "must be copied to the host first."
    ).format(device=device)
    fix = _("t.detach().cpu().numpy() — one copy from the device to the CPU")
    return "numpy_device", _("numpy() on a {device} tensor").format(device=device), why, fix


@_rule(r"can't convert np\.ndarray of type numpy\.object_")
def explain_numpy_object_array(match, op, tensors, params):
    why = _(
        "The array's dtype is object: its elements are Python objects, not numbers. That is what "
        "DataFrame.values gives for a frame that mixes numbers with text or True/False columns "
        "(pd.get_dummies makes True/False ones), and torch makes tensors only from arrays of "
        "numbers or bools."
    )
    fix = _(
        "convert to numbers first: torch.tensor(df.to_numpy(dtype=float)) for a DataFrame, "
        "torch.tensor(arr.astype(np.float32)) for an array"
    )
    return "numpy_object_array", _("torch makes no tensor from an array of objects"), why, fix


@_rule(
    r"a Tensor with (?P<numel>\d+) elements cannot be converted to Scalar",
    r"only one element tensors can be converted to Python scalars",
)
def explain_not_a_scalar(match, op, tensors, params):
    if match.groupdict().get("numel"):
        why = _(
            ".item(), float() and int() turn a one-element tensor into a Python number; this one "
            "has {count} elements, so torch cannot pick one."
        ).format(count=match["numel"])
    else:
        why = _(
            ".item(), float() and int() turn a one-element tensor into a Python number; this one "
            "has many elements, so torch cannot pick one."
        )
    fix = _("reduce first (t.sum().item(), t.mean().item()), pick one (t[0].item()), or t.tolist()")
    return "not_a_scalar", _("Only a one-element tensor becomes a Python number"), why, fix


@_rule(r"Boolean value of Tensor with more than one value is ambiguous")
def explain_ambiguous_bool(match, op, tensors, params):
    why = _(
        "if, while, and, or and not need one True/False, but a comparison of tensors gives "
        "one bool per element: torch will not guess whether you meant 'all' or 'any'."
    )
    fix = _("(a > 0).all() or (a > 0).any(); torch.equal(a, b) for 'same shape and values'")
    return "ambiguous_bool", _("A tensor of many booleans is not one True/False"), why, fix


@_rule(r"expected sequence of length (?P<want>\d+) at dim (?P<dim>\d+) \(got (?P<got>\d+)\)")
def explain_ragged_list(match, op, tensors, params):
    why = _(
        "A tensor is a rectangle: every list at depth {dim} must have the same length. The "
        "first has {want} items, a later one {got}."
    ).format(dim=match["dim"], want=match["want"], got=match["got"])
    fix = _("pad the short lists (torch.nn.utils.rnn.pad_sequence for sequences), or keep a list")
    return "ragged_list", _("Nested lists of different lengths"), why, fix


# --- dtypes an operation does not support ---------------------------------------------------------


@_rule(r"\"(?P<kernel>\w+)\" not implemented for '(?P<dtype>[\w:]+)'")
def explain_kernel_dtype(match, op, tensors, params):
    kernel, dtype = match["kernel"], match["dtype"]
    if dtype in ("Half", "BFloat16", "c10::Half", "c10::BFloat16"):
        why = _(
            "torch has no {kernel} kernel for {dtype} on this device: the 16-bit floats are "
            "meant for GPUs, and the CPU lacks some of their kernels."
        ).format(kernel=kernel, dtype=dtype)
        fix = _("compute this step in float32: t.float(), then .to(torch.float16) back if needed")
    else:
        why = _(
            "torch has no {kernel} kernel for {dtype} tensors: random normals, most maths "
            "functions and anything autograd differentiates need floating point."
        ).format(kernel=kernel, dtype=dtype)
        fix = _("use a float dtype (dtype=torch.float32, or t.float()); torch.randint for integers")
    return (
        "kernel_dtype",
        _("This operation does not support {dtype}").format(dtype=dtype),
        why,
        fix,
    )


@_rule(r"Integers to negative integer powers are not allowed")
def explain_negative_integer_power(match, op, tensors, params):
    why = _("2 ** -1 is 0.5, which an integer tensor cannot hold, so torch refuses it.")
    fix = _("make the base floating point: t.float() ** -1 (or t ** -1.0)")
    return "negative_integer_power", _("Integer tensor to a negative power"), why, fix


# --- nn layers -------------------------------------------------------------------------------


@_rule(
    r"Expected (?P<allowed>\d+D \(unbatched\) or \d+D \(batched\)) input to (?P<layer>\w+), "
    r"but got input of size: (?P<size>\[[^\]]*\])"
)
def explain_layer_input_dims(match, op, tensors, params):
    layer, size = match["layer"], match["size"]
    got = size.count(",") + 1 if size != "[]" else 0
    layouts = {"conv1d": "(N, C, L)", "conv2d": "(N, C, H, W)", "conv3d": "(N, C, D, H, W)"}
    layout = layouts.get(layer, "(N, C, …)")
    why = _(
        "{layer} reads {layout}: batch, channels, then the spatial dims. It accepts {allowed} "
        "input; this one is {size}, {got}-D."
    ).format(layer=layer, layout=layout, allowed=match["allowed"], size=size, got=got)
    fix = _(
        "add the missing batch / channel dims with unsqueeze (an image [28, 28] becomes "
        "x.unsqueeze(0).unsqueeze(0) → [1, 1, 28, 28]), or reshape a flattened batch back"
    )
    return (
        "layer_input_dims",
        _("{layer} got the wrong number of dims").format(layer=layer),
        why,
        fix,
    )


@_rule(
    r"weight of size (?P<weight>\[[^\]]*\]), expected input(?P<input>\[[^\]]*\]) to have "
    r"(?P<want>\d+) channels, but got (?P<got>\d+) channels"
)
def explain_conv_channels(match, op, tensors, params):
    want, got = match["want"], match["got"]
    why = _(
        "The layer's weight {weight} was built for in_channels={want}; the input {input} has "
        "{got} at dim 1, where convolutions read channels (N, C, H, W)."
    ).format(weight=match["weight"], want=want, input=match["input"], got=got)
    fix = _(
        "build the layer with in_channels={got}, or fix the input: images stored as (N, H, W, "
        "C) need x.permute(0, 3, 1, 2)"
    ).format(got=got)
    return "conv_channels", _("Channels do not match the convolution"), why, fix


@_rule(
    r"Given normalized_shape=(?P<norm>\[[^\]]*\]), expected input with shape "
    r"(?P<want>\[[^\]]*\]), but got input of size ?(?P<got>\[[^\]]*\])"
)
def explain_layer_norm_shape(match, op, tensors, params):
    why = _(
        "LayerNorm({norm_sizes}) normalises over the LAST dims, which must be {norm}; the "
        "input {got} ends differently."
    ).format(norm_sizes=match["norm"][1:-1], norm=match["norm"], got=match["got"])
    fix = _(
        "build LayerNorm with the input's last size (x.shape[-1]), or permute the features last"
    )
    return "layer_norm_shape", _("LayerNorm's shape does not match the input"), why, fix


@_rule(r"Expected more than 1 value per channel when training, got input size (?P<size>.+)")
def explain_batch_norm_single(match, op, tensors, params):
    why = _(
        "In training mode BatchNorm normalises with the batch's own mean and variance; one "
        "value per channel has no variance (input {size})."
    ).format(size=match["size"].strip())
    fix = _("use a batch of ≥ 2, or model.eval() for single-sample inference")
    return "batch_norm_single", _("BatchNorm needs more than one value per channel"), why, fix


# --- losses and class targets ----------------------------------------------------------------


@_rule(r"Target (?P<target>-?\d+) is out of bounds")
def explain_target_out_of_bounds(match, op, tensors, params):
    target = match["target"]
    why = _(
        "cross_entropy / nll_loss read the target as a class index into the logits' class "
        "dim: with C classes the valid labels are 0 … C−1, and {target} is not one of them."
    ).format(target=target)
    fix = _(
        "give the last layer as many outputs as there are classes, and shift 1-based labels "
        "(labels - 1)"
    )
    return "target_out_of_bounds", _("A class label is outside the model's classes"), why, fix


@_rule(
    r"Expected input batch_size \((?P<input>\d+)\) to match target batch_size \((?P<target>\d+)\)"
)
def explain_batch_size_mismatch(match, op, tensors, params):
    why = _(
        "The loss pairs one prediction with one target: {input} predictions, {target} "
        "targets. Often the logits were flattened or reshaped across the batch."
    ).format(**match.groupdict())
    fix = _("check logits.shape[0] == target.shape[0]; flatten with x.view(x.size(0), -1)")
    return "batch_size_mismatch", _("Predictions and targets differ in number"), why, fix


# --- autograd --------------------------------------------------------------------------------


@_rule(
    r"one of the variables needed for gradient computation has been modified by an inplace "
    r"operation: \[(?P<tensor>[^\]]*\[[^\]]*\])\](?:, which is output (?P<output>\d+) of "
    r"(?P<node>\w+),)? is at version (?P<now>\d+); expected version (?P<saved>\d+)"
)
def explain_saved_tensor_modified(match, op, tensors, params):
    if match["node"]:
        why = _(
            "The forward pass saved a tensor ({tensor}, output {output} of {node}) for backward, "
            "at version {saved}. An in-place write (x += …, x.mul_(…), x[i] = …) bumped it to "
            "version {now}, so the gradient would be computed from the wrong values."
        )
    else:
        why = _(
            "The forward pass saved a tensor ({tensor}) for backward, at version {saved}. An "
            "in-place write (x += …, x.mul_(…), x[i] = …) bumped it to version {now}, so the "
            "gradient would be computed from the wrong values."
        )
    why = why.format(**match.groupdict())  # tensor, output, node, saved, now
    fix = _(
        "write out of place (x = x * 2 instead of x *= 2), or clone() before the in-place write"
    )
    return "saved_tensor_modified", _("A tensor backward needs was changed in place"), why, fix


@_rule(
    r"Mismatch in shape: grad_output\[0\] has a shape of torch\.Size\((?P<grad>\[[^\]]*\])\) "
    r"and output\[0\] has a shape of torch\.Size\((?P<out>\[[^\]]*\])\)"
)
def explain_gradient_shape(match, op, tensors, params):
    why = _(
        "backward(gradient=g) needs g shaped like the tensor it starts from: the output is "
        "{out}, g is {grad}."
    ).format(**match.groupdict())
    fix = _("pass torch.ones_like(output) as gradient (or call backward() on a scalar loss)")
    return "gradient_shape", _("The gradient given to backward has the wrong shape"), why, fix


@_rule(r"cannot register a hook on a tensor that doesn't require gradient")
def explain_hook_without_grad(match, op, tensors, params):
    why = _("Hooks fire when backward passes through a tensor; this one is not in any graph.")
    fix = _("set requires_grad=True on the leaf (or compute it from one) before register_hook")
    return "hook_without_grad", _("No gradient will ever reach this tensor"), why, fix


@_rule(
    r"assign(?:ing)? a gradient of size '(?P<grad>\[[^\]]*\])' to a tensor of size '(?P<t>[^']*)'"
)
def explain_grad_assignment(match, op, tensors, params):
    why = _(".grad must have the tensor's own shape {t}; this one is {grad}.").format(
        t=match["t"], grad=match["grad"]
    )
    fix = _("assign a gradient shaped like the tensor, e.g. torch.zeros_like(t)")
    return "grad_assignment", _("A .grad of the wrong shape"), why, fix


# --- optimizers, modules, state dicts --------------------------------------------------------


@_rule(r"optimizer got an empty parameter list")
def explain_empty_optimizer(match, op, tensors, params):
    why = _(
        "The optimizer has nothing to update. model.parameters() is a generator: once "
        "consumed (by list() or a first optimizer) it yields nothing; or the model has no "
        "layers yet."
    )
    fix = _("pass a fresh model.parameters() (or list(model.parameters()) kept in a variable)")
    return "empty_optimizer", _("The optimizer got no parameters"), why, fix


@_rule(r"(?P<what>dropout) probability has to be between 0 and 1, but got (?P<p>\S+)")
def explain_probability(match, op, tensors, params):
    why = _("p is the chance of zeroing each element, so it lies between 0 and 1; got {p}.").format(
        p=match["p"]
    )
    fix = _("use e.g. nn.Dropout(0.5)")
    return "bad_probability", _("A probability must lie between 0 and 1"), why, fix


@_rule(r"Error\(s\) in loading state_dict for (?P<module>\w+)")
def explain_state_dict(match, op, tensors, params):
    message = match.string
    problems = []
    if "size mismatch" in message:
        problems.append(
            _("a saved tensor's shape differs from the model's (built with other sizes)")
        )
    if "Missing key" in message:
        problems.append(_("the model has parameters the file lacks"))
    if "Unexpected key" in message:
        problems.append(
            _(
                "the file has entries the model does not (a 'module.' prefix from "
                "DataParallel is a classic)"
            )
        )
    why = _(
        "load_state_dict matches entries by name and shape to {module}'s parameters: {problems}."
    )
    why = why.format(module=match["module"], problems=clauses(problems) or _("some did not match"))
    fix = _(
        "build the model with the sizes it was saved with; strip prefixes from the keys; "
        "strict=False loads what matches and returns the rest"
    )
    return "state_dict_mismatch", _("The checkpoint does not fit this model"), why, fix


@_rule(r"Expected reduction dim to be specified for input\.numel\(\) == 0")
def explain_empty_reduction(match, op, tensors, params):
    why = _("max/min of an empty tensor has no value to return.")
    fix = _("check t.numel() > 0 first, or reduce along a dim that is not empty")
    return "empty_reduction", _("Reducing an empty tensor"), why, fix


@_rule(r"Tensors must have same number of dimensions: got (?P<a>\d+) and (?P<b>\d+)")
def explain_cat_dims(match, op, tensors, params):
    why = _("cat joins tensors of the same rank; got {a}-D and {b}-D.").format(
        a=match["a"], b=match["b"]
    )
    fix = _("unsqueeze the smaller one (t.unsqueeze(0)), or torch.stack for a new dim")
    return "cat_shape", _("cat: tensors of different numbers of dims"), why, fix
