"""The local derivative of the common backward nodes, computed from the node's own saved tensors
(`_saved_self`, `_saved_exponent`, `_saved_result`, ...): the factor the chain rule multiplies
the arriving gradient by on each edge.

Each rule gives, per input (a position of `next_functions`), the formula in symbols, a sentence,
the local derivative as a tensor for element-wise ops, and the vector-Jacobian product — what
the node sends to that input for a given arriving gradient. Tests check every product against
torch.autograd.grad on the same forward, so a formula here can never drift from torch.

A rule reads saved tensors, which a backward without retain_graph frees: callers catch the
RuntimeError (local_derivatives.py) or read them before the pass (backward recording).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import torch

from tensorviz.core.translation import later

SUPERSCRIPTS = str.maketrans("0123456789-.", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻·")


@dataclass(frozen=True)
class Rule:
    input_nr: int
    formula: str  # "∂(x²)/∂x = 2·x"
    words: str  # a LaterText: translated where shown, so a switch of language reaches it
    vjp: Callable[[torch.Tensor], torch.Tensor]  # arriving gradient → gradient sent to the input
    local: torch.Tensor | None = None  # the element-wise derivative itself (None: not element-wise)
    at: torch.Tensor | None = None  # the input's value it was taken at, when the node saved it


def input_shape(fn, input_nr: int) -> tuple[int, ...] | None:
    """The shape of what the node's input `input_nr` produced in the forward pass."""
    source, output_nr = fn.next_functions[input_nr]
    if source is None:
        return None
    if type(source).__name__ == "AccumulateGrad":
        return tuple(source.variable.shape)
    try:
        return tuple(source._input_metadata[output_nr].shape)
    except (AttributeError, IndexError, RuntimeError):
        return None


def _to_input(fn, input_nr: int, grad: torch.Tensor) -> torch.Tensor:
    """A broadcast input gets the gradient summed back to its own shape (as torch does)."""
    shape = input_shape(fn, input_nr)
    return grad.sum_to_size(shape) if shape is not None and tuple(grad.shape) != shape else grad


def _power(base: str, exponent) -> str:
    if exponent == 1:
        return base
    if exponent == 0:
        return "1"
    text = f"{exponent:g}" if isinstance(exponent, float) else str(exponent)
    if len(text) <= 3 and all(c in "0123456789-." for c in text):
        return base + text.translate(SUPERSCRIPTS)
    return f"{base}^{text}"


def _elementwise(fn, input_nr: int, formula: str, words: str, local, at=None) -> Rule:
    local = torch.as_tensor(local).detach()
    at = at.detach() if isinstance(at, torch.Tensor) else None
    return Rule(input_nr, formula, words, lambda g: _to_input(fn, input_nr, g * local), local, at)


def _live(fn, positions) -> list[int]:
    return [i for i in positions if i < len(fn.next_functions) and fn.next_functions[i][0]]


# --- element-wise ---------------------------------------------------------------------------------


def _pow0(fn, s):
    x, n = fn._saved_self, fn._saved_exponent
    formula = f"∂({_power(s[0], n)})/∂{s[0]} = {n}·{_power(s[0], _minus_one(n))}"
    words = later("the power rule: bring the exponent {n} down and lower it by one").format(n=n)
    return [_elementwise(fn, 0, formula, words, n * x ** (n - 1), x)]


def _minus_one(n):
    return n - 1 if not isinstance(n, float) or n != int(n) else int(n) - 1


def _pow1(fn, s):
    a, b, result = fn._saved_self, fn._saved_exponent, fn._saved_result
    power = f"{s[0]}^{s[1]}"
    rules = {
        0: (
            f"∂({power})/∂{s[0]} = {s[1]}·{s[0]}^({s[1]}−1)",
            later("the power rule"),
            b * a ** (b - 1),
        ),
        1: (
            f"∂({power})/∂{s[1]} = {power}·ln {s[0]}",
            later("the exponent's rule"),
            result * a.log(),
        ),
    }
    return [_elementwise(fn, i, *rules[i]) for i in _live(fn, (0, 1))]


def _pow2(fn, s):
    base, result = fn._saved_self, fn._saved_result
    formula = f"∂(c^{s[0]})/∂{s[0]} = c^{s[0]}·ln c, c = {base}"
    local = result * torch.log(torch.tensor(float(base)))
    words = later("a constant raised to the power of the input")
    return [_elementwise(fn, 0, formula, words, local)]


def _mul(fn, s):
    rules = []
    for i in _live(fn, (0, 1)):
        other = fn._saved_other if i == 0 else fn._saved_self
        mine, theirs = s[i], s[1 - i]
        words = later("a product changes with {mine} at the rate of the other factor, {theirs}")
        words = words.format(mine=mine, theirs=theirs)
        rules.append(_elementwise(fn, i, f"∂({s[0]}·{s[1]})/∂{mine} = {theirs}", words, other))
    return rules


def _div(fn, s):
    a, b = fn._saved_self, fn._saved_other
    quotient = f"{s[0]}/{s[1]}"
    rules = {
        0: (
            f"∂({quotient})/∂{s[0]} = 1/{s[1]}",
            later("dividing scales the slope by 1/b"),
            lambda: 1 / b,
        ),
        1: (
            f"∂({quotient})/∂{s[1]} = −{s[0]}/{s[1]}²",
            later("a bigger divisor makes the quotient smaller"),
            lambda: -a / b**2,
        ),
    }
    return [_elementwise(fn, i, rules[i][0], rules[i][1], rules[i][2]()) for i in _live(fn, (0, 1))]


def _add_sub(sign: str):
    def rule(fn, s):
        alpha = getattr(fn, "_saved_alpha", 1)
        rules = []
        for i in _live(fn, (0, 1)):
            factor = 1 if i == 0 else (-alpha if sign == "−" else alpha)
            formula = f"∂({s[0]} {sign} {s[1]})/∂{s[i]} = {factor:g}"
            if factor == 1:
                words = later("a sum passes the gradient through unchanged")
            elif factor == -1:
                words = later("the subtracted term passes the gradient with its sign flipped")
            else:
                words = later("the term scaled by alpha = {alpha} passes it scaled so")
                words = words.format(alpha=alpha)
            local = torch.full((), float(factor))
            rules.append(_elementwise(fn, i, formula, words, local))
        return rules

    return rule


def _rsub(fn, s):
    alpha = fn._saved_alpha
    formula = f"∂(c − {s[0]})/∂{s[0]} = {-alpha:g}"
    words = later("x is subtracted: the gradient flips sign")
    return [Rule(0, formula, words, lambda g: -alpha * g)]


def _unary(formula: str, words: Callable[[], str], local: Callable):
    def rule(fn, s):
        at = getattr(fn, "_saved_self", None)
        return [_elementwise(fn, 0, formula.format(x=s[0]), words(), local(fn), at)]

    return rule


# op → (formula, its sentence (read in the language in force), the local derivative)
UNARY = {
    "NegBackward0": (
        "∂(−{x})/∂{x} = −1",
        lambda: later("negation flips the sign"),
        lambda fn: -torch.ones(()),
    ),
    "ExpBackward0": (
        "∂(e^{x})/∂{x} = e^{x}",
        lambda: later("eˣ is its own slope"),
        lambda fn: fn._saved_result,
    ),
    "LogBackward0": (
        "∂(ln {x})/∂{x} = 1/{x}",
        lambda: later("the log flattens as x grows"),
        lambda fn: 1 / fn._saved_self,
    ),
    "SinBackward0": (
        "∂(sin {x})/∂{x} = cos {x}",
        lambda: later("the slope of sin is cos"),
        lambda fn: torch.cos(fn._saved_self),
    ),
    "CosBackward0": (
        "∂(cos {x})/∂{x} = −sin {x}",
        lambda: later("the slope of cos is −sin"),
        lambda fn: -torch.sin(fn._saved_self),
    ),
    "TanhBackward0": (
        "∂(tanh {x})/∂{x} = 1 − tanh²({x})",
        lambda: later("tanh saturates: the slope fades"),
        lambda fn: 1 - fn._saved_result**2,
    ),
    "SigmoidBackward0": (
        "∂σ({x})/∂{x} = σ({x})·(1 − σ({x}))",
        lambda: later("at most 0.25, at x = 0"),
        lambda fn: fn._saved_result * (1 - fn._saved_result),
    ),
    "ReluBackward0": (
        "∂relu({x})/∂{x} = 1 where {x} > 0, else 0",
        lambda: later("ReLU lets the gradient through only where its input was positive"),
        lambda fn: (fn._saved_result > 0).to(fn._saved_result.dtype),
    ),
    "SqrtBackward0": (
        "∂√{x}/∂{x} = 1/(2√{x})",
        lambda: later("the root flattens as x grows"),
        lambda fn: 0.5 / fn._saved_result,
    ),
    "AbsBackward0": (
        "∂|{x}|/∂{x} = sign({x})",
        lambda: later("|x| falls left of 0, rises right of it"),
        lambda fn: torch.sign(fn._saved_self),
    ),
    "CloneBackward0": (
        "∂clone({x})/∂{x} = 1",
        lambda: later("a copy passes the gradient unchanged"),
        lambda fn: torch.ones(()),
    ),
}


# --- reductions, shapes, matrix products ----------------------------------------------------------


def _sum(fn, s):
    shape = tuple(fn._saved_self_sym_sizes)
    words = later("every element adds once: each gets the gradient unchanged")
    return [Rule(0, f"∂(Σ {s[0]})/∂{s[0]}ᵢ = 1", words, lambda g: g.expand(shape))]


def _sum_dims(fn, s):
    shape, dims, keep = tuple(fn._saved_self_sym_sizes), fn._saved_dim, fn._saved_keepdim
    words = later("summed over dim {dims}: the gradient is copied back along it")
    words = words.format(dims=list(dims))
    formula = f"∂(Σ_dim {s[0]})/∂{s[0]}ᵢ = 1"
    return [Rule(0, formula, words, lambda g: _unsqueezed(g, dims, keep, shape))]


def _mean(fn, s):
    shape, n = tuple(fn._saved_self_sym_sizes), fn._saved_self_sym_numel
    words = later("each of the {n} elements weighs 1/n in the mean").format(n=n)
    formula = f"∂(mean {s[0]})/∂{s[0]}ᵢ = 1/n = 1/{n}"
    return [Rule(0, formula, words, lambda g: g.expand(shape) / n)]


def _mean_dims(fn, s):
    shape, dims, keep = tuple(fn._saved_self_sym_sizes), fn._saved_dim, fn._saved_keepdim
    n = 1
    for d in dims:
        n *= shape[d]
    words = later("averaged over dim {dims} ({n} elements)").format(dims=list(dims), n=n)
    formula = f"∂(mean_dim {s[0]})/∂{s[0]}ᵢ = 1/{n}"
    return [Rule(0, formula, words, lambda g: _unsqueezed(g, dims, keep, shape) / n)]


def _unsqueezed(grad, dims, keepdim, shape):
    if not keepdim:
        for d in sorted(d % len(shape) for d in dims):
            grad = grad.unsqueeze(d)
    return grad.expand(shape)


def _mm(fn, s):
    a, b = fn._saved_self, fn._saved_mat2
    rules = {
        0: (f"∂({s[0]} @ {s[1]})/∂{s[0]}: gradient @ {s[1]}ᵀ", lambda g: g @ b.mT),
        1: (f"∂({s[0]} @ {s[1]})/∂{s[1]}: {s[0]}ᵀ @ gradient", lambda g: a.mT @ g),
    }
    words = later("a matrix product's derivative is the other matrix, transposed to fit the shapes")
    return [Rule(i, rules[i][0], words, rules[i][1]) for i in _live(fn, (0, 1))]


def _addmm(fn, s):
    m1, m2, alpha, beta = fn._saved_mat1, fn._saved_mat2, fn._saved_alpha, fn._saved_beta
    rules = {
        0: (
            "∂(bias + A @ W)/∂bias = 1, summed over the batch",
            lambda g: _to_input(fn, 0, beta * g),
        ),
        1: ("∂(bias + A @ W)/∂A: gradient @ Wᵀ", lambda g: alpha * g @ m2.mT),
        2: ("∂(bias + A @ W)/∂W: Aᵀ @ gradient", lambda g: alpha * m1.mT @ g),
    }
    words = later("nn.Linear's bias + input @ weightᵀ")
    return [Rule(i, rules[i][0], words, rules[i][1]) for i in _live(fn, (0, 1, 2))]


def _mse(fn, s):
    x, target, reduction = fn._saved_self, fn._saved_target, fn._saved_reduction
    n = x.numel() if reduction == 1 else 1
    local = 2 * (x - target) / n
    over = f"/n, n = {n}" if reduction == 1 else ""
    formula = f"∂ mean(({s[0]} − y)²)/∂{s[0]} = 2({s[0]} − y){over}"
    words = later("the squared error grows with the miss")
    return [_elementwise(fn, 0, formula, words, local)]


def _view(fn, s):
    shape = tuple(fn._saved_self_sym_sizes)
    words = later("a view moves no values: the gradient is reshaped back to {shape}")
    words = words.format(shape=list(shape))
    return [
        Rule(0, f"∂ view({s[0]})/∂{s[0]} = 1, reshaped back", words, lambda g: g.reshape(shape))
    ]


def _t(fn, s):
    words = later("the gradient is transposed back")
    return [Rule(0, f"∂({s[0]}ᵀ)/∂{s[0]}: gradientᵀ", words, lambda g: g.t())]


def _expand(fn, s):
    shape = tuple(fn._saved_self_sym_sizes)
    words = later("one element was read many times (stride 0): its gradients add up")
    formula = f"∂ expand({s[0]})/∂{s[0]}: summed over the copies"
    return [Rule(0, formula, words, lambda g: g.sum_to_size(shape))]


def _softmax(fn, s):
    y, dim = fn._saved_result, fn._saved_dim
    formula = f"∂ softmax({s[0]})ᵢ/∂{s[0]}ⱼ = yᵢ(δᵢⱼ − yⱼ)"
    words = later("raising one input lowers every other output: the rows of the Jacobian sum to 0")
    return [Rule(0, formula, words, lambda g: y * (g - (g * y).sum(dim, keepdim=True)))]


RULES: dict[str, Callable] = {
    "PowBackward0": _pow0,
    "PowBackward1": _pow1,
    "PowBackward2": _pow2,
    "MulBackward0": _mul,
    "DivBackward0": _div,
    "AddBackward0": _add_sub("+"),
    "SubBackward0": _add_sub("−"),
    "RsubBackward1": _rsub,
    **{name: _unary(*spec) for name, spec in UNARY.items()},
    "SumBackward0": _sum,
    "SumBackward1": _sum_dims,
    "MeanBackward0": _mean,
    "MeanBackward1": _mean_dims,
    "MmBackward0": _mm,
    "AddmmBackward0": _addmm,
    "MseLossBackward0": _mse,
    "ViewBackward0": _view,
    "ReshapeAliasBackward0": _view,
    "UnsafeViewBackward0": _view,
    "TBackward0": _t,
    "ExpandBackward0": _expand,
    "SoftmaxBackward0": _softmax,
}


def rules_of(fn, symbols: list[str]) -> list[Rule] | None:
    """The rules of node `fn` (None: not a node we explain); `symbols` name its inputs in the
    formulas. Raises RuntimeError when the saved tensors were freed."""
    rule = RULES.get(type(fn).__name__)
    return None if rule is None else rule(fn, symbols)
