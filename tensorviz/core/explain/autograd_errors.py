"""Explanations for autograd errors about leaves and graphs: in-place writes into a leaf (or a
view of one) that requires grad, a second backward through a freed graph, backward without a
scalar, nothing that requires grad, and integer tensors asked to require grad."""

from __future__ import annotations

from tensorviz.core.explain.rules import (
    ErrorParts,
    Rule,
    first_name,
    format_shape,
    rule_into,
    sentences,
)
from tensorviz.core.translation import _

AUTOGRAD_RULES: list[Rule] = []  # in definition order: the first match wins
_rule = rule_into(AUTOGRAD_RULES)

NO_GRAD_UPDATE = "with torch.no_grad(): w -= lr * w.grad"


@_rule(r"a view of a leaf Variable that requires grad is being used in an in-place operation")
def explain_inplace_view_of_leaf(match, op, tensors, params) -> ErrorParts:
    name = first_name(params)
    x = tensors[0] if tensors else None
    base = x._base if x is not None else None
    if x is not None and base is not None:
        why = _(
            "{name} (shape {shape}) is a view of a leaf: it was made from a tensor of shape "
            "{base_shape} that you created with requires_grad=True, and it shares that leaf's "
            "memory. The view itself is not a leaf ({name}.is_leaf is {is_leaf}, it has grad_fn "
            "{grad_fn}), but writing into it would change the leaf in place, so torch refuses."
        ).format(
            name=name,
            shape=format_shape(x.shape),
            base_shape=format_shape(base.shape),
            is_leaf=x.is_leaf,
            grad_fn=type(x.grad_fn).__name__,
        )
    elif x is not None:
        why = _(
            "Indexing {name} (shape {shape}) gives a view of it, and {name} is a leaf that "
            "requires grad ({name}.is_leaf is {is_leaf}). An assignment like {name}[0] = … writes "
            "through that view into the leaf's own memory: an in-place change of the leaf, so "
            "torch refuses."
        ).format(name=name, shape=format_shape(x.shape), is_leaf=x.is_leaf)
    else:
        why = _(
            "The tensor you wrote into is a view of a leaf that requires grad: it shares the "
            "leaf's memory, so the write would change the leaf in place."
        )
    if op == "__setitem__":
        statement = f"{name} = …"  # the script wrote into the view by assignment
    elif op and op.endswith("_"):
        statement = f"{name}.{op}(…)"
    else:
        statement = f"{name}[…] = …"
    fix = _(
        "write outside autograd — with torch.no_grad(): {statement} — for initial values or a "
        "manual update ({update}); otherwise change a copy: y = {name}.clone(), then write into "
        "y, and the leaf stays as it was"
    ).format(statement=statement, update=NO_GRAD_UPDATE, name=name)
    title = _("A view of a leaf that requires grad cannot be changed in place")
    return "inplace_leaf", title, why, fix


@_rule(r"leaf Variable that requires grad is being used in an in-place operation")
def explain_inplace_leaf(match, op, tensors, params) -> ErrorParts:
    action = op or _("an in-place op")
    if tensors:
        why = _(
            "The tensor (shape {shape}) is a leaf: you created it with requires_grad=True, so "
            "autograd computes gradients with respect to it. Changing it in place with {action} "
            "would alter the value the graph was built from, so torch refuses."
        ).format(shape=format_shape(tensors[0].shape), action=action)
    else:
        why = _(
            "The tensor is a leaf: you created it with requires_grad=True, so autograd computes "
            "gradients with respect to it. Changing it in place with {action} would alter the "
            "value the graph was built from, so torch refuses."
        ).format(action=action)
    fix = _(
        "for a parameter update, do it outside autograd: {update}; otherwise write out-of-place "
        "(y = x + 1) or change a copy: y = x.clone(); y.add_(1)"
    ).format(update=NO_GRAD_UPDATE)
    title = _("A leaf tensor that requires grad cannot be changed in place")
    return "inplace_leaf", title, why, fix


@_rule(r"backward through the graph a second time")
def explain_freed_graph(match, op, tensors, params) -> ErrorParts:
    why = _(
        "The first backward() walked the graph and then freed the intermediate values it had "
        "saved (to save memory). A second backward() through the same graph needs them again."
    )
    fix = _(
        "rebuild the graph by recomputing the forward pass each step; if you truly need two "
        "passes call the first as loss.backward(retain_graph=True); detach() tensors carried "
        "over from a previous step (e.g. an RNN's hidden state)"
    )
    title = _("The graph was already used by backward() and freed")
    return "backward_freed_graph", title, why, fix


@_rule(r"grad can be implicitly created only for scalar outputs")
def explain_non_scalar_backward(match, op, tensors, params) -> ErrorParts:
    if tensors:
        why = _(
            "backward() with no argument computes d(output)/d(leaves) for one number; this output "
            "has {count} elements (shape {shape}), so torch does not know how to weight its "
            "elements."
        ).format(count=tensors[0].numel(), shape=format_shape(tensors[0].shape))
    else:
        why = _(
            "backward() with no argument computes d(output)/d(leaves) for one number; this output "
            "is not 0-d, so torch does not know how to weight its elements."
        )
    fix = _(
        "reduce to a scalar first: y.sum().backward() or y.mean().backward(); or pass the weights "
        "yourself: y.backward(gradient=torch.ones_like(y))"
    )
    return "non_scalar_backward", _("backward() without arguments needs a scalar"), why, fix


@_rule(r"does not require grad and does not have a grad_fn")
def explain_no_grad(match, op, tensors, params) -> ErrorParts:
    why = _(
        "The tensor you call backward() on is not connected to any tensor with requires_grad="
        "True: no input asked for gradients, or it was computed under torch.no_grad(), "
        "detached, or passed through a non-differentiable step (argmax, .item(), int casts)."
    )
    if tensors:
        y = tensors[0]
        here = _("Here requires_grad={requires_grad}, grad_fn={grad_fn}.")
        why = sentences(why, here.format(requires_grad=y.requires_grad, grad_fn=y.grad_fn))
    fix = _(
        "create the parameters with requires_grad=True (torch.randn(3, requires_grad=True)) "
        "and compute the loss outside torch.no_grad() without detach()"
    )
    return "backward_no_grad", _("Nothing in this computation requires grad"), why, fix


@_rule(r"(?i:only) Tensors of floating point( and complex)? dtype can require gradients")
def explain_integer_requires_grad(match, op, tensors, params) -> ErrorParts:
    why = _(
        "Gradients are slopes of smooth functions, so only floating-point (and complex) tensors "
        "can require grad. Integer tensors — Python ints become int64, arange of ints too — "
        "cannot."
    )
    fix = _(
        "make the tensor float first: torch.arange(5.0), torch.tensor([1.0, 2.0]), or "
        "x.float().requires_grad_(); or pick dtype float32 with requires_grad"
    )
    title = _("Only floating-point tensors can require grad")
    return "integer_requires_grad", title, why, fix
