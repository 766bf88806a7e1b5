"""Explanations for device errors: tensors on two devices, a torch without CUDA asked for the
GPU, meta tensors that hold no data, and running out of memory."""

from __future__ import annotations

import re

import torch

from tensorviz.core.explain.rules import ErrorParts, Rule, both, first_name, rule_into, sentences
from tensorviz.core.translation import _

DEVICE_RULES: list[Rule] = []  # in definition order: the first match wins
_rule = rule_into(DEVICE_RULES)

PICK_A_DEVICE = 'device = torch.device("cuda" if torch.cuda.is_available() else "cpu")'


def _meta_has_no_data() -> str:
    return _(
        "A meta tensor has a shape, a dtype and strides but no values (torch uses it to plan "
        "memory and to build models too big for RAM)."
    )


def _readable_bytes(count: int) -> str:
    if count < 1024:
        return _("{count} bytes").format(count=count)
    size, unit = count / 1024, "PiB"
    for name in ("KiB", "MiB", "GiB", "TiB"):
        if size < 1024:
            unit = name
            break
        size /= 1024
    return _("{size} {unit} ({count} bytes)").format(size=f"{size:.2f}", unit=unit, count=count)


@_rule(r"out of memory|can't allocate memory")
def explain_out_of_memory(match, op, tensors, params) -> ErrorParts:
    asked = re.search(r"Tried to allocate ([\d.]+ \w+)|tried to allocate (\d+) bytes", match.string)
    amount = None
    if asked:
        amount = asked[1] or _readable_bytes(int(asked[2]))
    why = _(
        "The device ran out of memory. Memory holds the parameters, their gradients, the "
        "optimizer state and every activation saved for backward, which grows with batch size."
    )
    if amount:
        why = sentences(why, _("This allocation alone asked for {amount}.").format(amount=amount))
    fix = _(
        "use a smaller batch size; wrap evaluation in with torch.no_grad(): so no activations "
        "are kept; del tensors you no longer need (then torch.cuda.empty_cache()); log "
        "loss.item() instead of loss so old graphs are freed"
    )
    return "out_of_memory", _("Out of memory"), why, fix


@_rule(r"Torch not compiled with CUDA enabled")
def explain_cuda_not_compiled(match, op, tensors, params) -> ErrorParts:
    why = _(
        "This torch ({version}) was built for the CPU only (torch.version.cuda is {cuda}), so "
        "device='cuda', .cuda() and .to('cuda') cannot work here, whatever graphics card the "
        "machine has. torch.cuda.is_available() says {available}. Code written for a GPU must "
        "ask which device exists."
    ).format(
        version=torch.__version__, cuda=torch.version.cuda, available=torch.cuda.is_available()
    )
    fix = _(
        "choose the device when the script runs, so it works on every machine: {pick}, then "
        "x = x.to(device) and model.to(device); for a GPU, install a CUDA build of torch "
        "(pytorch.org, Get Started)"
    ).format(pick=PICK_A_DEVICE)
    return "cuda_not_compiled", _("This torch has no CUDA: there is no GPU to use"), why, fix


@_rule(r"cannot be called on meta tensors", r"Cannot copy out of meta tensor; no data!")
def explain_meta_has_no_data(match, op, tensors, params) -> ErrorParts:
    why = sentences(_meta_has_no_data(), _("There is nothing to read, print or copy out of it."))
    name = first_name(params, "m")
    fix = _(
        "make a tensor with memory of the same shape: torch.zeros_like({name}, device='cpu') "
        "(or empty_like, uninitialised); a model built on meta gets real weights with "
        "model.to_empty(device='cpu') and then an initialisation or load_state_dict"
    ).format(name=name)
    return "meta_no_data", _("A meta tensor holds no data"), why, fix


def _devices_of(message: str, tensors) -> list[str]:
    devices = list(dict.fromkeys(str(t.device) for t in tensors))
    if len(devices) >= 2:
        return devices
    found = (
        re.search(r"at least two devices, (\S+) and (\S+?)!", message)
        or re.search(r"is on (\S+?), different from other tensors on (\S+?)(?:\s|$)", message)
        or re.search(r"Tensor on device (\S+) is not on the expected device (\S+?)!", message)
    )
    if found:
        return list(found.groups())
    return ["cuda", "cpu"] if re.search(r"Input type \(", message) else []


@_rule(
    r"same device|Input type \([^)]*\) and \w+ type \(",
    r"Tensor on device \S+ is not on the expected device \S+!",
)
def explain_device(match, op, tensors, params) -> ErrorParts | None:
    message = match.string
    types = re.search(r"Input type \(([^)]*)\) and \w+ type \(([^)]*)\)", message)
    if types and ("cuda" in types[1]) == ("cuda" in types[2]):
        return None  # same device, so this is a dtype complaint
    devices = _devices_of(message, tensors)
    if devices:
        why = _(
            "The inputs live on {devices}. A GPU computes only on its own memory and torch never "
            "moves data silently, because every CPU↔GPU copy costs time."
        ).format(devices=both(devices))
    else:
        why = _(
            "The inputs live on different devices. A GPU computes only on its own memory and "
            "torch never moves data silently, because every CPU↔GPU copy costs time."
        )
    fix = _(
        "pick one device, {pick}, and move model and data there: model.to(device), x = x.to(device)"
    ).format(pick=PICK_A_DEVICE)
    if "meta" in devices:
        other = next((d for d in devices if d != "meta"), "cpu")
        mixing = _(
            "Mixing it with a {other} tensor is refused exactly as mixing a GPU tensor with a CPU "
            "one would be."
        ).format(other=other)
        why = sentences(why, _meta_has_no_data(), mixing)
        names = params.get("input_names") or ()
        off_meta = [
            names[i] if i < len(names) and names[i] else "b"
            for i, t in enumerate(tensors[:2])
            if t.device.type != "meta"
        ]
        to_meta = f"{off_meta[0] if off_meta else 'b'}.to('meta')"
        fix = _(
            "to plan shapes, put both on meta ({to_meta}); in real code pick one device, {pick}, "
            "and move model and data there: model.to(device), x = x.to(device)"
        ).format(to_meta=to_meta, pick=PICK_A_DEVICE)
    title = _("All tensors in one operation must be on the same device")
    return "device_mismatch", title, why, fix
