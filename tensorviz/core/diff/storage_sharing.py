"""Tied weights that split or merge: entries that read one storage on one side and separate
storages on the other (an embedding tied to the output layer, saved untied after a conversion).
The storages are torch's own, as the Files area's reader grouped them."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from tensorviz.core.diff.key_matching import KeyMatch
from tensorviz.core.diff.sides import ComparedSide
from tensorviz.core.translation import _


@dataclass(frozen=True)
class SharingChange:
    kind: str  # "split": shared in A, apart in B; "merged": apart in A, shared in B
    keys_a: tuple[str, ...]
    keys_b: tuple[str, ...]
    parts: int  # storages the group reads on the side where it is apart

    def text(self) -> str:
        if self.kind == "split":
            return _("{keys} share one storage in A; in B they read {n} separate storages.").format(
                keys=", ".join(self.keys_a), n=self.parts
            )
        return _("{keys} share one storage in B; in A they read {n} separate storages.").format(
            keys=", ".join(self.keys_b), n=self.parts
        )


def sharing_changes(side_a: ComparedSide, side_b: ComparedSide, matches: list[KeyMatch]):
    """Groups of matched entries whose storage sharing differs between the sides."""
    pairs = [m for m in matches if m.key_a in side_a.tensors and m.key_b in side_b.tensors]
    changes = _apart(side_a, side_b, pairs, "split")
    flipped = [KeyMatch(m.key_b, m.key_a, m.how) for m in pairs]
    for change in _apart(side_b, side_a, flipped, "merged"):
        changes.append(SharingChange("merged", change.keys_b, change.keys_a, change.parts))
    return changes


def _apart(one: ComparedSide, other: ComparedSide, pairs: list[KeyMatch], kind: str):
    """Groups sharing a storage in `one` whose partners in `other` read several storages."""
    groups: dict[int, list[KeyMatch]] = defaultdict(list)
    for match in pairs:
        storage = one.storage_of(match.key_a)
        if storage is not None:
            groups[storage].append(match)
    found = []
    for members in groups.values():
        # an entry without a storage of its own (sparse, meta) counts as apart
        storages = {_storage_or_own(other, m.key_b) for m in members}
        if len(members) > 1 and len(storages) > 1:
            found.append(SharingChange(kind, tuple(m.key_a for m in members),
                                       tuple(m.key_b for m in members), len(storages)))  # fmt: skip
    return found


def _storage_or_own(side: ComparedSide, key: str):
    storage = side.storage_of(key)
    return ("own", key) if storage is None else storage


def _alias(side: ComparedSide, key: str):
    """What makes two entries one tensor: the same storage, offset, shape, stride and dtype."""
    info = side.tensors[key].info
    if not info.plain:
        return None
    return info.storage_id, info.storage_offset, info.shape, info.stride, info.dtype


def tied_matches(side_a: ComparedSide, side_b: ComparedSide, matches: list[KeyMatch],
                 only_a: list[str], only_b: list[str]) -> list[KeyMatch]:  # fmt: skip
    """Tied weights saved once: a key on one side only that is, on its own side, the same tensor
    as a matched key whose partner stands alone on the other side (GPT-2's `lm_head.weight`, tied
    to `transformer.wte.weight`: torch.save keeps both keys, safetensors and save_pretrained one).
    Each is paired with that partner, how="tied"; A's key first, as every match."""
    found = []
    for one, other, only, flip in ((side_a, side_b, only_a, False), (side_b, side_a, only_b, True)):
        partner = {(m.key_b if flip else m.key_a): (m.key_a if flip else m.key_b) for m in matches}
        matched_alias: dict = {}
        for key in one.tensors:
            if key in partner and (alias := _alias(one, key)) is not None:
                matched_alias.setdefault(alias, key)
        for key in only:
            tied_to = matched_alias.get(_alias(one, key))
            if tied_to is None or _aliased_elsewhere(other, partner[tied_to]):
                continue
            pair = (partner[tied_to], key) if flip else (key, partner[tied_to])
            found.append(KeyMatch(*pair, "tied"))
    return found


def _aliased_elsewhere(side: ComparedSide, key: str) -> bool:
    """The entry has another key on its side that is the same tensor (it is not saved once)."""
    alias = _alias(side, key)
    return alias is None or any(k != key and _alias(side, k) == alias for k in side.tensors)
