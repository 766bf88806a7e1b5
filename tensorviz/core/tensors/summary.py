"""A tensor at a glance: one-line statistics, a histogram, and the 2-D slice a table shows.

Pure torch + numpy (ARCHITECTURE rule 1). Statistics are over the finite values; complex tensors
are summarised by their magnitude |x|, bool tensors as 0/1.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace

import numpy
import torch

from tensorviz.core.tensors.identity import dtype_name
from tensorviz.core.translation import _

SHORT_DTYPE_NAMES = {
    "bool": "bool",
    "uint8": "u8",
    "int8": "i8",
    "int16": "i16",
    "int32": "i32",
    "int64": "i64",
    "float16": "f16",
    "bfloat16": "bf16",
    "float32": "f32",
    "float64": "f64",
    "complex64": "c64",
    "complex128": "c128",
}


@dataclass(frozen=True)
class TensorSummary:
    shape: tuple[int, ...]
    dtype: str  # torch's name without the "torch." prefix, e.g. "float32"
    device: str
    numel: int
    min: float | None  # min/max/mean/std: over finite values (|x| for complex, 0/1 for bool)
    max: float | None
    mean: float | None
    std: float | None  # None with fewer than two finite values (torch would give nan)
    nan_count: int
    inf_count: int  # both signs
    zero_count: int
    neg_inf_count: int = 0
    scalar_text: str = ""  # the value itself, for a 0-d tensor

    @property
    def is_complex(self) -> bool:
        return self.dtype.startswith("complex")

    @property
    def is_integral(self) -> bool:
        return self.dtype == "bool" or self.dtype.startswith(("int", "uint"))

    def text(self) -> str:
        """One line in the style of lovely-tensors: 'tensor[2, 3] f32 n=6 x∈[0, 5] μ=2.500 ...'."""
        head = heading(self.shape, self.dtype, self.device)
        if not self.shape:
            return f"{head} {self.scalar_text}"
        if self.numel == 0:
            return _("{head} empty").format(head=head)
        parts = [head, f"n={self.numel}"]
        if self.min is not None and self.max is not None:
            x = "|x|" if self.is_complex else "x"
            low = format_statistic(self.min, self.is_integral)
            high = format_statistic(self.max, self.is_integral)
            parts.append(f"{x}∈[{low}, {high}]")
        if self.mean is not None:
            parts.append(f"μ={format_statistic(self.mean)}")
        if self.std is not None:
            parts.append(f"σ={format_statistic(self.std)}")
        if self.zero_count:
            parts.append(_("zeros={count}").format(count=self.zero_count))
        if self.nan_count:
            parts.append(f"NaN!={self.nan_count}")
        if self.is_complex and self.inf_count:
            parts.append(f"Inf!={self.inf_count}")  # a complex infinity has no sign
        else:
            if self.inf_count - self.neg_inf_count:
                parts.append(f"+Inf!={self.inf_count - self.neg_inf_count}")
            if self.neg_inf_count:
                parts.append(f"-Inf!={self.neg_inf_count}")
        return " ".join(parts)


def heading(shape: tuple[int, ...], dtype: str, device: str = "cpu") -> str:
    """The start of a summary line, known before any statistic: 'tensor[2, 3] f32'."""
    text = f"tensor[{', '.join(map(str, shape))}] {SHORT_DTYPE_NAMES.get(dtype, dtype)}"
    return text if device == "cpu" else f"{text} {device}"


def no_values_note(tensor: torch.Tensor) -> str | None:
    """Why a tensor has no values to show or summarise (None: it has them)."""
    if tensor.device.type == "meta":
        head = heading(tuple(tensor.shape), dtype_name(tensor.dtype), "meta")
        return _(
            "{head} — a meta tensor: shape, dtype and strides, but no values to show (the meta "
            "device stores none; torch uses it to plan shapes and build models too big for "
            "memory)."
        ).format(head=head)
    return None


def format_statistic(value: float, integral: bool = False) -> str:
    if integral and math.isfinite(value):
        return str(int(value))
    if value == 0 or 1e-3 <= abs(value) < 1e5 or not math.isfinite(value):
        return f"{value:.3f}"
    return f"{value:.3e}"


def _scalar_text(tensor: torch.Tensor) -> str:
    value = tensor.item()
    if isinstance(value, bool | int):
        return str(value)
    if isinstance(value, complex):
        sign = "-" if math.copysign(1.0, value.imag) < 0 else "+"
        return f"{format_statistic(value.real)}{sign}{format_statistic(abs(value.imag))}j"
    return format_statistic(value)


def _magnitudes(tensor: torch.Tensor) -> torch.Tensor:
    """A real tensor whose statistics describe `tensor`: |x| for complex, 0/1 for bool."""
    if tensor.is_complex():
        return tensor.abs()
    if tensor.dtype == torch.bool:
        return tensor.to(torch.uint8)
    return tensor


def _finite_values(values: torch.Tensor, finite_mask: torch.Tensor | None) -> torch.Tensor:
    return values.reshape(-1) if finite_mask is None else values[finite_mask]


def _for_accurate_moments(values: torch.Tensor) -> torch.Tensor:
    # torch's CPU reductions on float32/float64 accumulate in double already; everything else
    # (half types, integers, GPU float32) is widened so the mean and std do not lose digits.
    if values.dtype == torch.float64 or (values.dtype == torch.float32 and values.is_cpu):
        return values
    return values.to(torch.float64)


def _without_repeats(tensor: torch.Tensor) -> tuple[torch.Tensor, int]:
    """An expanded tensor (stride 0) reads each stored element many times; statistics need each
    distinct element once, times the repeat factor — never a multi-GB flattened copy."""
    index, factor = [], 1
    for size, stride in zip(tensor.shape, tensor.stride(), strict=True):
        repeated = stride == 0 and size > 1
        index.append(slice(0, 1) if repeated else slice(None))
        factor *= size if repeated else 1
    return (tensor[tuple(index)], factor) if factor > 1 else (tensor, 1)


# dtypes torch stores but has few CPU kernels for (no count_nonzero, isfinite, min/max): their
# statistics are computed on a wider copy; the summary still names the stored dtype.
_WIDENED = {
    getattr(torch, name): wider
    for name, wider in (
        ("float8_e4m3fn", torch.float32),
        ("float8_e5m2", torch.float32),
        ("float8_e4m3fnuz", torch.float32),
        ("float8_e5m2fnuz", torch.float32),
        ("float8_e8m0fnu", torch.float32),
        ("uint16", torch.int64),
        ("uint32", torch.int64),
        ("uint64", torch.float64),  # beyond int64's range
    )
    if hasattr(torch, name)
}


def _computable(tensor: torch.Tensor) -> torch.Tensor:
    wider = _WIDENED.get(tensor.dtype)
    return tensor if wider is None else tensor.to(wider)


def summarize(tensor: torch.Tensor) -> TensorSummary:
    stored = dtype_name(tensor.dtype)
    summary = _summarize_detached(_computable(tensor.detach()))
    return summary if summary.dtype == stored else replace(summary, dtype=stored)


def _summarize_detached(tensor: torch.Tensor) -> TensorSummary:
    compact, factor = _without_repeats(tensor)
    if factor == 1:
        return _summarize(tensor)
    once = _summarize(compact)
    # Moments are over finite values: each distinct finite value is repeated `factor` times.
    n_once = compact.numel() - once.nan_count - once.inf_count
    n_all = n_once * factor
    std = once.std
    if std is not None:  # same values, each repeated: rescale Bessel's n − 1
        std = math.sqrt(std * std * (n_once - 1) / n_once * n_all / (n_all - 1))
    elif once.mean is not None and n_all > 1:
        std = 0.0
    return replace(
        once,
        shape=tuple(tensor.shape),
        numel=tensor.numel(),
        std=std,
        nan_count=once.nan_count * factor,
        inf_count=once.inf_count * factor,
        neg_inf_count=once.neg_inf_count * factor,
        zero_count=once.zero_count * factor,
    )


def _summarize(tensor: torch.Tensor) -> TensorSummary:
    common = {
        "shape": tuple(tensor.shape),
        "dtype": dtype_name(tensor.dtype),
        "device": str(tensor.device),
        "numel": tensor.numel(),
    }
    if tensor.numel() == 0:
        return TensorSummary(**common, min=None, max=None, mean=None, std=None, nan_count=0,
                             inf_count=0, zero_count=0)  # fmt: skip
    zero_count = tensor.numel() - int(torch.count_nonzero(tensor))
    nan_count = inf_count = neg_inf_count = 0
    finite_mask = None
    if tensor.is_floating_point() or tensor.is_complex():
        # A finite sum proves every value finite, and costs far less than isnan/isinf passes.
        if not bool(torch.isfinite(tensor.sum())):
            nan_mask = torch.isnan(tensor)
            inf_mask = torch.isinf(tensor)
            nan_count = int(nan_mask.sum())
            inf_count = int(inf_mask.sum())
            if not tensor.is_complex():
                neg_inf_count = int((inf_mask & (tensor < 0)).sum())
            finite_mask = ~(nan_mask | inf_mask)
    finite = _finite_values(_magnitudes(tensor), finite_mask)
    low = high = mean = std = None
    if finite.numel():
        low_tensor, high_tensor = torch.aminmax(finite)
        low, high = float(low_tensor), float(high_tensor)
        moments = _for_accurate_moments(finite)
        if finite.numel() >= 2:
            std_tensor, mean_tensor = torch.std_mean(moments)
            std, mean = float(std_tensor), float(mean_tensor)
        else:
            mean = float(moments.mean())
    return TensorSummary(
        **common,
        min=low,
        max=high,
        mean=mean,
        std=std,
        nan_count=nan_count,
        inf_count=inf_count,
        zero_count=zero_count,
        neg_inf_count=neg_inf_count,
        scalar_text=_scalar_text(tensor) if tensor.dim() == 0 else "",
    )


def finite_values_as_numpy(tensor: torch.Tensor) -> numpy.ndarray:
    """The finite values (|x| for complex, 0/1 for bool) as a flat float64 array."""
    values = _magnitudes(_computable(tensor.detach()))
    if values.is_floating_point():
        values = values[torch.isfinite(values)]
    return values.reshape(-1).to(device="cpu", dtype=torch.float64).numpy()


def histogram(tensor: torch.Tensor, bins: int = 64) -> tuple[numpy.ndarray, numpy.ndarray]:
    """(counts, edges) of the finite values, as numpy.histogram gives them; empty when none."""
    compact, factor = _without_repeats(tensor.detach())
    if compact.device.type not in ("cpu", "meta"):  # a GPU tensor stays there: bins travel
        counts, edges = histogram_on_device(compact, bins)
        return counts * factor, edges
    values = finite_values_as_numpy(compact)
    if values.size == 0:
        return numpy.zeros(0, dtype=numpy.int64), numpy.zeros(0, dtype=numpy.float64)
    counts, edges = numpy.histogram(values, bins=bins)
    return counts * factor, edges


def histogram_on_device(tensor: torch.Tensor, bins: int) -> tuple[numpy.ndarray, numpy.ndarray]:
    """numpy.histogram's bins computed where the tensor is (torch.histc), so only the counts are
    copied to the CPU; the same equal-width bins over [min, max] (±0.5 when all are equal)."""
    values = _magnitudes(_computable(tensor)).reshape(-1)
    wide = torch.float32 if values.device.type == "mps" else torch.float64  # (no float64 on MPS)
    values = values.to(wide)
    values = values[torch.isfinite(values)]
    if values.numel() == 0:
        return numpy.zeros(0, dtype=numpy.int64), numpy.zeros(0, dtype=numpy.float64)
    low, high = (float(v) for v in torch.aminmax(values))
    if low == high:
        low, high = low - 0.5, high + 0.5
    counts = torch.histc(values, bins, low, high).cpu().numpy().astype(numpy.int64)
    return counts, numpy.linspace(low, high, bins + 1)


def default_table_dims(ndim: int) -> tuple[int | None, int | None]:
    """The dims a table shows first: the last two (rows, columns), the only one, or none."""
    if ndim >= 2:
        return ndim - 2, ndim - 1
    return (0, None) if ndim == 1 else (None, None)


def slice_2d(
    tensor: torch.Tensor, row_dim: int | None, col_dim: int | None, fixed: Mapping[int, int]
) -> torch.Tensor:
    """A view of `tensor` with dims (row_dim, col_dim), every other dim d held at fixed[d].

    A missing fixed index means 0. Either shown dim may be None, giving a 1-D or 0-d view.
    """
    shown = [dim for dim in (row_dim, col_dim) if dim is not None]
    if len(set(shown)) != len(shown):
        raise ValueError(
            _("rows and columns must be different dims, both are {dim}").format(dim=row_dim)
        )
    for dim in shown:
        if not 0 <= dim < tensor.dim():
            raise IndexError(
                _("dim {dim} is out of range for a {count}-d tensor").format(
                    dim=dim, count=tensor.dim()
                )
            )
    hidden = [dim for dim in range(tensor.dim()) if dim not in shown]
    if any(tensor.shape[dim] == 0 for dim in hidden):
        # No index exists along an empty dim; show the shown dims with no rows instead.
        sizes = [0] + [tensor.shape[dim] for dim in shown[1:]]
        strides = [tensor.stride(dim) for dim in shown]
        return tensor.as_strided(sizes, strides, tensor.storage_offset())
    view = tensor
    for dim in reversed(hidden):  # from the last dim, so lower dim numbers stay valid
        view = view.select(dim, fixed.get(dim, 0))
    if len(shown) == 2 and row_dim > col_dim:
        view = view.transpose(0, 1)
    return view if view is not tensor else tensor[...]  # a fresh alias, strides untouched
