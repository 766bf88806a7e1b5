"""Which key of A is which key of B: the same name, the same name under a prefix added or removed
(`module.` from DataParallel, `_orig_mod.` from torch.compile, `model.` or `state_dict.model.`
from a Lightning checkpoint), or — for what is left — identical shape and bytes under another
name. A match found by prefix or bytes is a rename, not one removal plus one addition.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass

# Wrappers that may stand in for each other ("module.x" in A, "_orig_mod.x" in B).
WRAPPER_PREFIXES = ("module", "_orig_mod", "model")
# What torch's own wrappers add to every key: DistributedDataParallel / DataParallel `module.`,
# torch.compile `_orig_mod.`; keys that differ by these alone name the same weights.
TORCH_WRAPPERS = ("module", "_orig_mod")


@dataclass(frozen=True)
class KeyMatch:
    key_a: str
    key_b: str
    how: str  # "name" | "prefix" | "bytes" | "picked" | "tied" (saved once on the other side)

    @property
    def renamed(self) -> bool:
        return self.key_a != self.key_b

    @property
    def key(self) -> str:
        """The name a row is shown and grouped under: the shorter one for a prefix change."""
        if self.how == "prefix":
            return min(self.key_a, self.key_b, key=len)
        return self.key_b


@dataclass
class KeyPlan:
    matches: list[KeyMatch]
    only_a: list[str]
    only_b: list[str]


def match_by_name(keys_a: Iterable[str], keys_b: Iterable[str]) -> KeyPlan:
    """Exact names first, then wrappers swapped, then prefixes added or removed."""
    keys_a, keys_b = list(keys_a), list(keys_b)
    in_b = set(keys_b)
    matches = [KeyMatch(k, k, "name") for k in keys_a if k in in_b]
    left_a = [k for k in keys_a if k not in in_b]
    matched = {m.key_b for m in matches}
    left_b = [k for k in keys_b if k not in matched]
    for finder in (_wrapper_matches, _prefix_matches):
        found = finder(left_a, left_b)
        matches += found
        taken_a, taken_b = {m.key_a for m in found}, {m.key_b for m in found}
        left_a = [k for k in left_a if k not in taken_a]
        left_b = [k for k in left_b if k not in taken_b]
    return KeyPlan(matches, left_a, left_b)


def _unwrapped(key: str, wrappers: tuple[str, ...] = WRAPPER_PREFIXES) -> str:
    parts = key.split(".")
    kept = [p for p in parts[:-1] if p not in wrappers]
    return ".".join([*kept, parts[-1]])


def wrapper_difference(key_a: str, key_b: str) -> tuple[list[str], list[str]] | None:
    """(wrappers only A's key has, wrappers only B's has) when the keys differ by torch's
    wrappers alone ("_orig_mod.h.0.w" and "h.0.w": (["_orig_mod."], [])), else None."""
    if key_a == key_b or _unwrapped(key_a, TORCH_WRAPPERS) != _unwrapped(key_b, TORCH_WRAPPERS):
        return None
    parts_a, parts_b = Counter(key_a.split(".")[:-1]), Counter(key_b.split(".")[:-1])
    return ([f"{w}." for w in TORCH_WRAPPERS if parts_a[w] > parts_b[w]],
            [f"{w}." for w in TORCH_WRAPPERS if parts_b[w] > parts_a[w]])  # fmt: skip


def _wrapper_matches(left_a: list[str], left_b: list[str]) -> list[KeyMatch]:
    """'module.x' ↔ '_orig_mod.x', when the unwrapped name is unique on both sides."""
    by_a, by_b = _unique_by(left_a, _unwrapped), _unique_by(left_b, _unwrapped)
    return [KeyMatch(by_a[name], by_b[name], "prefix") for name in by_a if name in by_b]


def _unique_by(keys: list[str], name_of: Callable[[str], str]) -> dict[str, str]:
    found: dict[str, list[str]] = defaultdict(list)
    for key in keys:
        found[name_of(key)].append(key)
    return {name: ks[0] for name, ks in found.items() if len(ks) == 1}


MAX_SEGMENT = 3  # components a prefix adds: "state_dict.model", "module", "base_model.model"


def _cuts(key: str):
    """(rule, key without the segment): every run of up to MAX_SEGMENT components taken out
    before the last one ("model.module.x.w" → (("model", "module"), "model.x.w"), …)."""
    parts = key.split(".")
    for i in range(len(parts) - 1):
        for j in range(i + 1, min(len(parts) - 1, i + MAX_SEGMENT) + 1):
            rule = (".".join(parts[:i]), ".".join(parts[i:j]))
            yield rule, ".".join(parts[:i] + parts[j:])


def _prefix_matches(left_a: list[str], left_b: list[str]) -> list[KeyMatch]:
    """A segment one side has and the other lacks, at the front ("state_dict.model.") or below a
    common head ("model.module."), the rule that explains most keys first."""
    in_a, in_b = set(left_a), set(left_b)
    support: Counter[tuple[str, str, str]] = Counter()
    for side, keys, other in (("a", left_a, in_b), ("b", left_b, in_a)):
        for key in keys:
            support.update((side, *rule) for rule, rest in _cuts(key) if rest in other)
    matches = []
    for side, head, segment in sorted(support, key=lambda rule: (-support[rule], rule)):
        longer, shorter = (in_a, in_b) if side == "a" else (in_b, in_a)
        for key in left_a if side == "a" else left_b:
            rest = _without(key, head, segment)
            if key in longer and rest is not None and rest in shorter:
                pair = (key, rest) if side == "a" else (rest, key)
                matches.append(KeyMatch(*pair, "prefix"))
                longer.discard(key)
                shorter.discard(rest)
    return matches


def _without(key: str, head: str, segment: str) -> str | None:
    """key with `segment` taken out right after `head`, or None if it is not there."""
    start = f"{head}.{segment}." if head else f"{segment}."
    if not key.startswith(start):
        return None
    rest = key[len(start) :]
    return f"{head}.{rest}" if head else rest


def match_by_bytes(
    only_a: dict[str, Hashable],
    only_b: dict[str, Hashable],
    digest_a: Callable[[str], bytes | None],
    digest_b: Callable[[str], bytes | None],
) -> list[KeyMatch]:
    """Keys left over on both sides with the same signature (shape, dtype) and the same bytes,
    where those bytes are one key's alone on each side: a digest of None (a constant: all zeros,
    all ones, which many tensors hold) or one that several keys share pairs nothing. Digests are
    asked for only where the other side has a key of the same signature."""
    signatures_b = Counter(only_b.values())
    signatures_a = Counter(only_a.values())
    by_digest_b: dict[tuple, list[str]] = defaultdict(list)
    for key, signature in only_b.items():
        if signatures_a[signature] and (digest := digest_b(key)) is not None:
            by_digest_b[(signature, digest)].append(key)
    by_digest_a: dict[tuple, list[str]] = defaultdict(list)
    for key, signature in only_a.items():
        if signatures_b[signature] and (digest := digest_a(key)) is not None:
            by_digest_a[(signature, digest)].append(key)
    return [KeyMatch(keys[0], by_digest_b[found][0], "bytes")
            for found, keys in by_digest_a.items()
            if len(keys) == 1 and len(by_digest_b.get(found, ())) == 1]  # fmt: skip
