"""Honest words about what torch itself would do with a pickle we read without running it.

* the globals `torch.load(weights_only=True)` refuses (torch's own allow-list decides), and
  whether its weights-only unpickler can read the pickle's opcodes at all (it reads a subset of
  protocol 2: its opcode list is read from torch, not written here);
* the calls a plain `torch.load(weights_only=False)` would make (every recorded CallStandIn);
* when nothing would be called and every refused global is a data class, the exact
  `torch.serialization.safe_globals([...])` lines that load the file in the user's own code.
"""

from __future__ import annotations

import functools
import os
import pickle
from dataclasses import dataclass, field

from tensorviz.core.files.data_types import torch_allowed_names
from tensorviz.core.files.stand_ins import CallStandIn
from tensorviz.core.files.weights_only_check import torch_refusal
from tensorviz.core.translation import _, ngettext


def _calls_sentence(loader: str, n: int) -> str:
    """'{loader} would make {n} call(s): {calls}. tensorviz recorded … and called nothing.'"""
    if loader == "dcp.load":
        return ngettext(
            "torch.distributed.checkpoint.load (it reads .metadata with a plain pickle.load) "
            "would make {n} call: {calls}. tensorviz recorded it and called nothing.",
            "torch.distributed.checkpoint.load (it reads .metadata with a plain pickle.load) "
            "would make {n} calls: {calls}. tensorviz recorded them and called nothing.",
            n,
        )
    if loader == "torch.jit.load":
        return ngettext(
            "A plain pickle.load of the archive's data would make {n} call: {calls}. tensorviz "
            "recorded it and called nothing.",
            "A plain pickle.load of the archive's data would make {n} calls: {calls}. tensorviz "
            "recorded them and called nothing.",
            n,
        )
    return ngettext(
        "A plain torch.load(weights_only=False) of this file would make {n} call: {calls}. "
        "tensorviz recorded it and called nothing.",
        "A plain torch.load(weights_only=False) of this file would make {n} calls: {calls}. "
        "tensorviz recorded them and called nothing.",
        n,
    )


BLOCKED_MODULES = {"sys", "os", "posix", "nt"}  # torch never allows these, whatever the user says
SPECIAL_FORMS = {"builtins.getattr", "copyreg._reconstructor", "copyreg.__newobj__",
                 "copyreg.__newobj_ex__"}  # fmt: skip


@functools.lru_cache(maxsize=1)
def torch_opcodes() -> frozenset[str]:
    """The opcode names torch's weights-only unpickler implements (the ones it imports)."""
    from torch import _weights_only_unpickler as weights_only

    codes = {v for v in vars(weights_only).values() if isinstance(v, bytes) and len(v) == 1}
    return frozenset(k for k, v in vars(pickle).items() if k.isupper() and isinstance(v, bytes)
                     and v in codes)  # fmt: skip


def unsupported_opcodes(codes: set[int]) -> list[str]:
    """Names of the opcodes (seen by our unpickler) that torch's weights-only unpickler lacks."""
    known = torch_opcodes()
    names = {v[0]: k for k, v in vars(pickle).items()
             if k.isupper() and isinstance(v, bytes) and len(v) == 1}  # fmt: skip
    return sorted({names.get(c, f"0x{c:02x}") for c in codes} - known)


@dataclass
class SafetyReport:
    """What torch would do with the pickles of one file (or of a folder's files, merged)."""

    globals_seen: dict[str, tuple[str, str]] = field(default_factory=dict)
    known: dict[str, object] = field(default_factory=dict)  # the data types we built for real
    calls: list[CallStandIn] = field(default_factory=list)
    object_classes: list[str] = field(default_factory=list)
    opcodes: list[str] = field(default_factory=list)  # ones weights_only cannot read
    built_types: dict[str, type] = field(default_factory=dict)  # real objects given state
    protocol: int = 0
    where: dict[int, str] = field(default_factory=dict)  # id(call) → file it is in (folders)
    loader: str = "torch.load"  # what would read it: "torch.load", "dcp.load", "torch.jit.load"
    parts: list[tuple[str, SafetyReport]] = field(default_factory=list)  # a folder's files
    pickle_data: bytes | None = field(default=None, repr=False)  # a zip's data.pkl, to ask torch
    _refusal: str | None = field(default=None, repr=False)

    @classmethod
    def of(
        cls,
        unpicklers,
        opcodes: list[str] | None = None,
        where: str = "",
        data: bytes | None = None,
    ) -> SafetyReport:
        report = cls(opcodes=list(opcodes or []), pickle_data=data)
        for unpickler in unpicklers:
            report.globals_seen.update(unpickler.globals_seen)
            report.known.update(
                {n: unpickler.known[n] for n in unpickler.globals_seen if n in unpickler.known}
            )
            report.calls += [c for c in unpickler.calls if not c.problem]
            report.built_types.update(unpickler.built_types)
            report.object_classes += [o.class_name for o in unpickler.objects]
            report.protocol = max(report.protocol, unpickler.protocol)
        report.object_classes = list(dict.fromkeys(report.object_classes))
        report.where = {id(c): where for c in report.calls}
        return report

    def merge(self, other: SafetyReport, where: str = "") -> None:
        """Add a file's report (a folder's file, or a part of one file when `where` is "")."""
        if where:
            self.parts += [
                (f"{where}/{w}" if w else where, r) for w, r in other.parts or [("", other)]
            ]
        self.globals_seen.update(other.globals_seen)
        self.known.update(other.known)
        self.built_types.update(other.built_types)
        self.calls += other.calls
        self.object_classes = list(dict.fromkeys(self.object_classes + other.object_classes))
        self.opcodes = list(dict.fromkeys(self.opcodes + other.opcodes))
        self.protocol = max(self.protocol, other.protocol)
        self.where.update(other.where)

    @property
    def refused_globals(self) -> list[str]:
        """What torch.load(weights_only=True) refuses, in the order the pickle names them."""
        allowed = torch_allowed_names()
        return [name for name in self.globals_seen if name not in allowed]

    @property
    def runs_code(self) -> bool:
        return bool(self.calls)

    def call_texts(self, limit: int = 160) -> list[str]:
        texts = []
        for call in self.calls:
            where = self.where.get(id(call))
            texts.append(f"{where}: {call.text(limit)}" if where else call.text(limit))
        return texts

    def _allow_list(self) -> tuple[list[str], set[str], list] | None:
        """(expressions, their modules, the real objects) a safe_globals list needs, or None
        when there are calls, a special form, a blocked module or nothing to allow."""
        refused = self.refused_globals
        if self.calls or self.opcodes or not refused or self.loader != "torch.load" or self.parts:
            return None
        entries, modules, objects = [], set(), []
        for name in refused:
            module, qualname = self.globals_seen[name]
            if name in SPECIAL_FORMS or module.split(".")[0] in BLOCKED_MODULES or "<" in name:
                return None
            real = self.known.get(name)
            if real is None and name not in self.object_classes:
                return None  # named but neither built nor a class of an object: not data
            real_module = getattr(real, "__module__", None) or module
            real_qualname = getattr(real, "__qualname__", None) or qualname
            if real_module.startswith("tensorviz"):  # our wrapper of the library's function
                real_module, real_qualname = module, qualname
                real = _library_object(module, qualname)
            expression = f"{real_module}.{real_qualname}"
            modules.add(real_module)
            entries.append(expression if expression == name else f'({expression}, "{name}")')
            objects.append(real if expression == name else (real, name))
        allowed = torch_allowed_names()
        for name, kind in self.built_types.items():  # BUILD checks the object's own type
            expression = f"{kind.__module__}.{kind.__qualname__}"
            if name not in allowed and name not in refused and expression not in entries:
                entries.append(expression)
                modules.add(kind.__module__)
                objects.append(kind)
        return entries, modules, objects

    def torch_refusal(self) -> str | None:
        """torch's own reason for not loading the file even with the safe globals, or None.
        Asked of torch only when every global is one we know (the user's classes we cannot
        import; for them the lines come with a caveat)."""
        allow = self._allow_list()
        if allow is None or self.pickle_data is None or self.unknown_classes():
            return None
        if self._refusal is None:
            self._refusal = torch_refusal(self.pickle_data, allow[2]) or ""
        return self._refusal or None

    def safe_globals_code(self, path: str) -> str | None:
        """The lines that load this file with weights_only=True, or None when there is none:
        calls, a special form, a blocked module, an opcode torch cannot read, torch refusing
        even with the list, or a file whose pickle was not checked with torch (legacy)."""
        allow = self._allow_list()
        if allow is None or self.pickle_data is None or self.torch_refusal():
            return None
        entries, modules, _objects = allow
        imports = ", ".join(sorted(modules | {"torch"}))
        return (
            f"import {imports}\n"
            f"with torch.serialization.safe_globals([{', '.join(entries)}]):\n"
            f"    checkpoint = torch.load({path!r}, weights_only=True)"
        )

    def unknown_classes(self) -> list[str]:
        """Classes of objects that tensorviz does not know as data types (the user's own)."""
        return [name for name in self.object_classes
                if name not in self.known and not name.startswith("torch.")]  # fmt: skip

    def sentences(self, path: str, with_code: bool = True) -> list[str]:
        """The words the CLI prints and the Files area shows (one source for both); without
        `with_code` the safe_globals lines are only announced (the Files area copies them)."""
        if self.parts:
            return [f"{where}: {line}" for where, part in self.parts
                    for line in part.sentences(os.path.join(path, where), with_code)]  # fmt: skip
        words = []
        if self.calls:
            n = len(self.calls)
            calls = "; ".join(self.call_texts(100)[:5]) + (" …" if n > 5 else "")
            words.append(_calls_sentence(self.loader, n).format(n=n, calls=calls))
        if self.loader != "torch.load":
            return words  # torch.load(weights_only=...) is not how these files are loaded
        refused = self.refused_globals
        if refused:
            shown = ", ".join(refused[:8])
            if len(refused) > 8:
                shown = _("{names} and {n} more").format(names=shown, n=len(refused) - 8)
            words.append(
                _(
                    "torch.load(weights_only=True) refuses it: it names {names}, which "
                    "torch's allow-list does not hold."
                ).format(names=shown)
            )
        if self.opcodes:
            words.append(
                _(
                    "torch.load(weights_only=True) cannot read this pickle at all (protocol "
                    "{protocol}): torch's weights-only unpickler lacks the opcodes {opcodes}."
                ).format(protocol=self.protocol, opcodes=", ".join(self.opcodes[:4]))
            )
        code, refusal = self.safe_globals_code(path), self.torch_refusal()
        if refusal:
            words.append(
                _(
                    "Even with torch.serialization.safe_globals, torch's weights-only "
                    "unpickler refuses it: {refusal}"
                ).format(refusal=refusal)
            )
        if code:
            words.append(self._data_classes_sentence(code, with_code))
        return words

    def _data_classes_sentence(self, code: str, with_code: bool) -> str:
        if with_code:
            sentence = _("Every global it names is a data class; load it in your own code: {code}.")
        else:
            sentence = _(
                "Every global it names is a data class; load it in your own code with "
                "torch.serialization.safe_globals([...]) around torch.load."
            )
        sentence = sentence.format(code=code.replace(chr(10), " ⏎ "))
        if unknown := self.unknown_classes():
            trust = _(
                "Only if you trust {classes}: torch then makes their objects and runs their "
                "__setstate__."
            ).format(classes=", ".join(unknown))
            sentence = f"{sentence} {trust}"
        return sentence

    def to_json(self, path: str) -> dict:
        return {
            "refused_by_weights_only": self.refused_globals,
            "weights_only_missing_opcodes": list(self.opcodes),
            "calls": [
                {
                    "callable": c.callable_name,
                    "text": c.text(),
                    "danger": c.danger,
                    "file": self.where.get(id(c)) or None,
                }
                for c in self.calls
            ],  # fmt: skip
            "object_classes": list(self.object_classes),
            "safe_globals_code": self.safe_globals_code(path),
        }


def _library_object(module: str, qualname: str):
    """The library's own function that a data_types wrapper stands for (numpy's scalar)."""
    import importlib

    value = importlib.import_module(module)
    for part in qualname.split("."):
        value = getattr(value, part)
    return value
