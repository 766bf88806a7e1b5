"""Every way a learner creates a tensor, each a direct torch (or NumPy) call.

A CreationSpec names its parameters (validated by op_params first) and the code line it stands
for. Common options — dtype, device, requires_grad, seed — apply where torch accepts them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

import numpy as np
import torch

from tensorviz.core.tensors.memory_budget import allocation_problem
from tensorviz.core.tensors.op_params import ParamError, ParamSpec, format_param, parse_param
from tensorviz.core.translation import N_, _

P = ParamSpec
SHAPE = P("shape", "ints", "2, 3", N_("e.g. 2, 3 or 64, 3, 32, 32"))

# Notes are kept as these English texts (the catalogue's ids) and translated where they are
# shown, so a card shows them in the language in force.
LEGACY_TRAP = N_(
    "torch.Tensor(n) (capital T) is the legacy constructor: it allocates n floats WITHOUT "
    "initialising them, so the values are whatever bytes were in memory — garbage that can differ "
    "on every run. Use torch.zeros(n), torch.empty(n) when you will overwrite every element, or "
    "torch.tensor([...]) to build from data."
)
NUMPY_FLOAT64 = N_(
    "NumPy's default float is float64, so this tensor is float64 too — twice the memory of "
    "float32, and mixing it with float32 model weights raises a dtype error. Call .float() to "
    "convert."
)


@dataclass(frozen=True)
class Created:
    tensor: torch.Tensor
    code: str
    numpy_array: np.ndarray | None = None
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class CreationSpec:
    name: str
    group: str
    params: tuple[ParamSpec, ...]
    make: Callable[..., Created]  # make(options, **params)
    random: bool = False
    uses_options: bool = True  # False when dtype/device/requires_grad do not apply
    doc: str = ""


@dataclass(frozen=True)
class CreationOptions:
    dtype: torch.dtype | None = None  # None: let torch choose (and show what it chose)
    device: str = "cpu"
    requires_grad: bool = False
    seed: int | None = None
    kwargs: dict = field(default_factory=dict)

    def torch_kwargs(self) -> dict:
        kwargs = {"device": self.device, "requires_grad": self.requires_grad}
        if self.dtype is not None:
            kwargs["dtype"] = self.dtype
        return kwargs

    def code_kwargs(self) -> str:
        parts = []
        if self.dtype is not None:
            parts.append(f"dtype={self.dtype}")
        if self.device != "cpu":
            parts.append(f"device={self.device!r}")
        if self.requires_grad:
            parts.append("requires_grad=True")
        return "".join(f", {p}" for p in parts)


def _factory(fn: str, *param_names: str):
    """torch.<fn>(*params, **options): zeros, ones, full, eye, rand, randn, randint, arange..."""

    def make(options: CreationOptions, **params) -> Created:
        args = []
        for name in param_names:
            value = params[name]
            args.extend(value if name == "shape" else [value])
        tensor = getattr(torch, fn)(*args, **options.torch_kwargs())
        shown = ", ".join(
            ", ".join(map(str, params[n])) if n == "shape" else repr(params[n]) for n in param_names
        )
        return Created(tensor, f"torch.{fn}({shown}{options.code_kwargs()})")

    return make


def _like(fn: str):
    def make(options: CreationOptions, source: torch.Tensor, source_name: str) -> Created:
        return Created(
            getattr(torch, fn)(source, **options.torch_kwargs()),
            f"torch.{fn}({source_name}{options.code_kwargs()})",
        )

    return make


def _literal(options: CreationOptions, data) -> Created:
    tensor = torch.tensor(data, **options.torch_kwargs())
    notes = ()
    if options.dtype is None and tensor.dtype == torch.int64:
        notes = (N_("Python ints become int64 (torch.long) — the dtype class labels use."),)
    elif options.dtype is None and tensor.dtype == torch.float32:
        notes = (N_("Python floats become float32, torch's default dtype."),)
    return Created(tensor, f"torch.tensor({data!r}{options.code_kwargs()})", notes=notes)


def _legacy(options: CreationOptions, n: int) -> Created:
    tensor = torch.Tensor(n)
    if options.device != "cpu":
        tensor = tensor.to(options.device)
    return Created(tensor, f"torch.Tensor({n})", notes=(LEGACY_TRAP,))


def _from_numpy(options: CreationOptions, shape, fill: str, mode: str) -> Created:
    if options.seed is not None:
        np.random.seed(options.seed)
    if fill == "arange":
        array = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
        array_code = f"np.arange({int(np.prod(shape))}.0).reshape({', '.join(map(str, shape))})"
    else:
        array = np.random.rand(*shape)
        array_code = f"np.random.rand({', '.join(map(str, shape))})"
    if mode == "from_numpy (shares memory)":
        tensor = torch.from_numpy(array)
        code = f"arr = {array_code}\ntorch.from_numpy(arr)"
    else:
        tensor = torch.tensor(array)
        code = f"arr = {array_code}\ntorch.tensor(arr)"
    return Created(tensor, code, numpy_array=array, notes=(NUMPY_FLOAT64,))


def _preset(shape: tuple[int, ...], fn: str, label: str, scale: float | None = None):
    def make(options: CreationOptions) -> Created:
        tensor = getattr(torch, fn)(*shape, **options.torch_kwargs())
        code = f"torch.{fn}({', '.join(map(str, shape))}{options.code_kwargs()})"
        if scale is not None:
            with torch.no_grad():
                tensor = (
                    tensor * scale
                    if not options.requires_grad
                    else ((tensor.detach() * scale).requires_grad_())
                )
            code += f" * {scale}"
        return Created(tensor, code, notes=(label,))

    return make


def _arange_3d(options: CreationOptions) -> Created:
    return Created(torch.arange(24).reshape(2, 3, 4), "torch.arange(24).reshape(2, 3, 4)")


META_LESSON = N_(
    "On the meta device: a shape and a dtype, no data, on any machine. Apply add to it with "
    "other = x (a CPU tensor) and torch raises its real device error — the one a CUDA tensor "
    "plus a CPU tensor raises — explained with the fix that picks one device."
)


def _meta_lesson(options: CreationOptions) -> Created:
    tensor = torch.ones(2, 3, 4, device="meta")
    return Created(tensor, "torch.ones(2, 3, 4, device='meta')", notes=(META_LESSON,))


def _labels(options: CreationOptions) -> Created:
    tensor = torch.randint(0, 10, (32,), device=options.device)
    return Created(tensor, "torch.randint(0, 10, (32,))", notes=(N_("Class labels are int64."),))


SOURCE = P("source", "tensor", "", N_("a workspace tensor to copy shape, dtype and device from"))
CREATIONS: tuple[CreationSpec, ...] = (
    CreationSpec(
        "tensor",
        "From data",
        (
            P(
                "data",
                "literal",
                "[[1, 2], [3, 4]]",
                N_("nested lists of numbers; 3 alone gives a 0-d scalar"),
            ),
        ),
        _literal,
        doc=N_("Copies the data and infers the dtype: ints → int64, floats → float32."),
    ),
    CreationSpec(
        "Tensor (legacy)",
        "From data",
        (P("n", "int", "3"),),
        _legacy,
        uses_options=False,
        doc=N_("The capital-T trap: uninitialised memory."),
    ),
    CreationSpec("zeros", "Filled", (SHAPE,), _factory("zeros", "shape")),
    CreationSpec("ones", "Filled", (SHAPE,), _factory("ones", "shape")),
    CreationSpec(
        "full",
        "Filled",
        (P("size", "ints", "2, 3"), P("fill_value", "number", "7")),
        _factory("full", "size", "fill_value"),
    ),
    CreationSpec("eye", "Filled", (P("n", "int", "3"),), _factory("eye", "n")),
    CreationSpec(
        "rand",
        "Random",
        (SHAPE,),
        _factory("rand", "shape"),
        random=True,
        doc=N_("Uniform on [0, 1)."),
    ),
    CreationSpec(
        "randn",
        "Random",
        (SHAPE,),
        _factory("randn", "shape"),
        random=True,
        doc=N_("Standard normal: mean 0, std 1."),
    ),
    CreationSpec(
        "randint",
        "Random",
        (P("low", "int", "0"), P("high", "int", "10"), P("size", "ints", "2, 3")),
        _factory("randint", "low", "high", "size"),
        random=True,
        doc=N_("Integers in [low, high)."),
    ),
    CreationSpec(
        "arange",
        "Ranges",
        (P("start", "number", "0"), P("end", "number", "10"), P("step", "number", "1")),
        _factory("arange", "start", "end", "step"),
        doc=N_("Like range(): end is excluded."),
    ),
    CreationSpec(
        "linspace",
        "Ranges",
        (P("start", "number", "0"), P("end", "number", "1"), P("steps", "int", "5")),
        _factory("linspace", "start", "end", "steps"),
        doc=N_("steps evenly spaced values, end included."),
    ),
    *(
        CreationSpec(
            f"{fn}_like",
            "Like another",
            (SOURCE,),
            _like(f"{fn}_like"),
            random=fn.startswith("rand"),
        )
        for fn in ("zeros", "ones", "rand", "randn")
    ),
    CreationSpec(
        "from NumPy",
        "NumPy bridge",
        (
            SHAPE,
            P("fill", "choice", "arange", "", ("arange", "random.rand")),
            P(
                "mode",
                "choice",
                "tensor (copies)",
                "",
                ("tensor (copies)", "from_numpy (shares memory)"),
            ),
        ),
        _from_numpy,
        random=True,
        uses_options=False,
        doc=N_("torch.tensor(arr) copies; torch.from_numpy(arr) shares the array's memory."),
    ),
    CreationSpec("arange(24).reshape(2, 3, 4)", "Presets", (), _arange_3d, uses_options=False),
    CreationSpec("scalar torch.tensor(3)", "Presets", (), lambda o: _literal(o, 3)),
    CreationSpec(
        "image [1, 28, 28]",
        "Presets",
        (),
        _preset((1, 28, 28), "rand", N_("One grayscale 28×28 image: [channels, H, W].")),
        random=True,
    ),
    CreationSpec(
        "batch [64, 3, 32, 32]",
        "Presets",
        (),
        _preset((64, 3, 32, 32), "randn", N_("64 RGB 32×32 images: [N, C, H, W].")),
        random=True,
    ),
    CreationSpec(
        "text [8, 16, 32]",
        "Presets",
        (),
        _preset((8, 16, 32), "randn", N_("Text: [batch, seq_len, hidden].")),
        random=True,
    ),
    CreationSpec(
        "weights randn(256, 128) * 0.01",
        "Presets",
        (),
        _preset((256, 128), "randn", N_("Small random init for a 128 → 256 layer."), 0.01),
        random=True,
    ),
    CreationSpec("labels randint(0, 10, (32,))", "Presets", (), _labels, random=True),
    CreationSpec(
        "device lesson: ones(2, 3, 4) on meta", "Presets", (), _meta_lesson, uses_options=False
    ),
)
CREATIONS_BY_NAME = {spec.name: spec for spec in CREATIONS}
# One click each in the Workbench (the quick-create row): the factories that take a shape.
QUICK_CREATIONS = ("zeros", "ones", "rand", "randn")


def _needed_bytes(spec: CreationSpec, params: dict, options: CreationOptions) -> int:
    """Bytes the creation will allocate, known before any memory is touched: torch's "meta"
    device gives the exact shape and dtype; NumPy and the legacy constructor are estimated."""
    if spec.uses_options:
        # requires_grad is left out: on an integer dtype torch refuses it, and the real call
        # should say so rather than a size estimate
        sizing = replace(options, device="meta", requires_grad=False)
        try:
            made = spec.make(sizing, **params).tensor
            return made.numel() * made.element_size()
        except Exception:  # noqa: BLE001 — not sizable on meta: fall back to the estimate
            pass
    return _estimated_numel(spec, params) * 8


def creation_bytes(
    spec: CreationSpec,
    raw_params: Mapping[str, str],
    options: CreationOptions,
    tensors: Mapping[str, torch.Tensor] = {},  # noqa: B006
) -> int:
    """What `create` would allocate, or 0 when the parameters are wrong (create says why)."""
    try:
        params = {p.name: parse_param(p, raw_params.get(p.name, ""), tensors) for p in spec.params}
        if not spec.uses_options:
            options = CreationOptions(seed=options.seed)
        return _needed_bytes(spec, params, options)
    except Exception:  # noqa: BLE001
        return 0


def _estimated_numel(spec: CreationSpec, params: dict) -> int:
    """Elements the creation will allocate, from its parameters, before torch runs."""
    numel = 1
    for size in (params.get("shape"), params.get("size")):
        if size:
            numel = max(numel, math.prod(size))
    if "n" in params:
        numel = max(numel, params["n"] ** 2 if spec.name == "eye" else params["n"])
    if "steps" in params:
        numel = max(numel, params["steps"])
    if {"start", "end", "step"} <= params.keys() and params["step"]:
        count = (params["end"] - params["start"]) / params["step"]
        numel = max(numel, int(abs(count.real if isinstance(count, complex) else count)) + 1)
    return numel


def create(
    spec: CreationSpec,
    raw_params: Mapping[str, str],
    options: CreationOptions,
    tensors: Mapping[str, torch.Tensor] = {},
) -> Created:  # noqa: B006
    """Validate the parameters, seed if asked, then call torch. Raises ParamError for bad
    parameters; torch's own errors propagate for the caller to explain."""
    if not spec.uses_options:  # dtype/device/requires_grad do not apply: never pretend they did
        options = CreationOptions(seed=options.seed)
    params = {p.name: parse_param(p, raw_params.get(p.name, ""), tensors) for p in spec.params}
    if problem := allocation_problem(_needed_bytes(spec, params, options), spec.name):
        raise ParamError(problem)
    if "source" in params:
        params["source_name"] = format_param(SOURCE, params["source"], raw_params["source"])
    if any(v < 0 for p in spec.params if p.kind == "ints" for v in params[p.name]):
        raise ParamError(_("Sizes cannot be negative."))
    if spec.random and options.seed is not None:
        torch.manual_seed(options.seed)
    created = spec.make(options, **params)
    if spec.random and options.seed is not None:
        seeding = "np.random.seed" if created.numpy_array is not None else "torch.manual_seed"
        created = Created(
            created.tensor,
            f"{seeding}({options.seed})\n{created.code}",
            created.numpy_array,
            created.notes,
        )
    return created
