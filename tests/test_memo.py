"""The bounded memos every batch cache uses (forcecheck.memo): a bound that holds, nothing stale."""

import gc

import pytest

from forcecheck.memo import BoundedMemo, IdentityMemo


def test_a_bounded_memo_never_holds_more_than_its_limit_and_starts_afresh_when_full():
    memo = BoundedMemo(3)
    for key in "abc":
        assert memo.remember(key, key.upper()) == key.upper()
    assert dict(memo) == {"a": "A", "b": "B", "c": "C"}
    memo.remember("b", "again")  # a key it holds is replaced, nothing forgotten
    assert len(memo) == 3 and memo["b"] == "again"
    memo.remember("d", "D")  # one more than the limit: the rest is forgotten
    assert dict(memo) == {"d": "D"}
    for number in range(1000):
        memo.remember(number, number)
        assert len(memo) <= 3
    assert memo.get("a") is None and isinstance(memo, dict)


def test_a_memo_needs_room_for_one_entry():
    with pytest.raises(ValueError):
        BoundedMemo(0)


def test_an_identity_memo_is_bounded_and_never_answers_for_another_object_with_a_reused_id():
    memo = IdentityMemo(2)
    first, second, third = [], [], []  # unhashable, as a format's header table is not hashed
    memo.remember(first, 1)
    memo.remember(second, 2)
    assert (memo.get(first), memo.get(second), memo.get(third, "none")) == (1, 2, "none")
    memo.remember(third, 3)
    assert len(memo) == 1 and memo.get(first) is None and memo.get(third) == 3
    kept = IdentityMemo(8)
    kept.remember(object(), "old")  # the object is held by the memo: its id is not free for another
    newcomers = [object() for _ in range(100)]
    gc.collect()
    assert all(kept.get(item) is None for item in newcomers)
