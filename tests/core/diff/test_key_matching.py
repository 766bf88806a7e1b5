"""Keys matched across two sides: by name, by a prefix added or removed anywhere the wrappers put
one, by identical bytes; a match by prefix or bytes is a rename."""

from tensorviz.core.diff.key_matching import KeyMatch, match_by_bytes, match_by_name

KEYS = ["encoder.0.weight", "encoder.0.bias", "head.weight"]


def test_same_names_match_and_the_rest_is_one_sided():
    plan = match_by_name([*KEYS, "gone"], [*KEYS, "new"])
    assert [m.key_a for m in plan.matches] == KEYS
    assert all(m.how == "name" and not m.renamed for m in plan.matches)
    assert (plan.only_a, plan.only_b) == (["gone"], ["new"])


def test_prefixes_of_dataparallel_compile_and_lightning():
    for prefix in ("module.", "_orig_mod.", "model.", "state_dict.model."):
        plan = match_by_name([prefix + k for k in KEYS], KEYS)
        assert [(m.key_a, m.key_b) for m in plan.matches] == [(prefix + k, k) for k in KEYS]
        assert all(m.how == "prefix" and m.renamed for m in plan.matches)
        assert plan.only_a == plan.only_b == []
        reverse = match_by_name(KEYS, [prefix + k for k in KEYS])
        assert [(m.key_a, m.key_b) for m in reverse.matches] == [(k, prefix + k) for k in KEYS]


def test_a_wrapper_below_a_common_container_and_wrappers_swapped():
    plan = match_by_name([f"model.{k}" for k in KEYS], [f"model.module.{k}" for k in KEYS])
    assert [m.key_b for m in plan.matches] == [f"model.module.{k}" for k in KEYS]
    swapped = match_by_name([f"module.{k}" for k in KEYS], [f"_orig_mod.{k}" for k in KEYS])
    assert len(swapped.matches) == 3 and swapped.only_a == swapped.only_b == []


def test_the_row_is_named_by_the_shorter_key():
    assert KeyMatch("module.x.w", "x.w", "prefix").key == "x.w"
    assert KeyMatch("x.w", "y.w", "bytes").key == "y.w"


def test_identical_bytes_under_other_names_only_where_signatures_meet():
    asked = []

    def digest(side):
        def read(key):
            asked.append((side, key))
            return {"old.w": b"1", "old.v": b"2", "lone": b"3", "new.w": b"1", "new.v": b"9"}[key]

        return read

    only_a = {"old.w": ((4, 4), "float32"), "old.v": ((4, 4), "float32"), "lone": ((2,), "f")}
    only_b = {"new.w": ((4, 4), "float32"), "new.v": ((4, 4), "float32")}
    found = match_by_bytes(only_a, only_b, digest("a"), digest("b"))
    assert found == [KeyMatch("old.w", "new.w", "bytes")]
    assert ("a", "lone") not in asked  # nothing of its shape in B: never read
