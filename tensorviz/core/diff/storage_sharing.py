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
