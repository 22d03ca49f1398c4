"""values.replace copies a frozen value with some fields changed, whichever way it is stored;
KeptByIdentity keeps work done on an immutable value by the value itself."""

from __future__ import annotations

import pytest
from attrs import field, frozen

from karavan_core.values import KeptByIdentity, replace, replace_at


@frozen(slots=False)
class InDict:
    a: int
    b: tuple[int, ...]


@frozen
class InSlots:
    a: int
    b: tuple[int, ...]


@frozen(slots=False, cache_hash=True)
class HashKept:
    a: int
    b: tuple[int, ...]


@frozen(slots=False)
class Checked:
    a: int = field(converter=abs)
    b: tuple[int, ...] = ()


@pytest.mark.parametrize("kind", [InDict, InSlots, HashKept])
def test_replace_changes_the_named_fields_and_leaves_the_value_alone(kind):
    value = kind(1, (2, 3))
    hash(value)  # a class that keeps its hash must not hand it to the copy
    copy = replace(value, b=(4,))
    assert copy == kind(1, (4,)) and hash(copy) == hash(kind(1, (4,)))
    assert value == kind(1, (2, 3))
    with pytest.raises(KeyError):
        replace(value, c=5)


def test_replace_runs_init_where_it_does_more_than_store():
    assert replace(Checked(1), a=-7).a == 7


def test_replace_at():
    assert replace_at((1, 2, 3), 1, 9) == (1, 9, 3)


def test_kept_by_identity_works_once_per_object_and_lets_go_when_full():
    calls: list[tuple[int, ...]] = []

    def work(items: tuple[int, ...]) -> int:
        calls.append(items)
        return sum(items)

    kept = KeptByIdentity(work, 2)
    first, equal = (1, 2), tuple([1, 2])
    assert equal == first and equal is not first
    assert kept(first) == 3 and kept(first) == 3
    assert len(calls) == 1  # the same object: worked out once
    assert kept(equal) == 3 and len(calls) == 2  # an equal one is another object
    assert kept((5,)) == 5  # the third value lets the two kept go
    assert kept(first) == 3 and len(calls) == 4
