"""Helpers for the frozen attrs values the games are made of."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from operator import attrgetter
from typing import Any, Generic, TypeVar

import attrs

V = TypeVar("V", bound=attrs.AttrsInstance)  # an attrs value
T = TypeVar("T")
K = TypeVar("K")


@cache
def _layout(cls: type) -> tuple[Callable[[Any], tuple[Any, ...]], dict[str, int]]:
    """A getter of all init fields at once (one C call) and each field's position."""
    names = tuple(a.name for a in attrs.fields(cls) if a.init)
    return attrgetter(*names), {name: i for i, name in enumerate(names)}


@cache
def _dict_fields(cls: type) -> int:
    """How many fields a ``cls`` value keeps in its ``__dict__``, if a copy may copy it; else 0.

    A copy may copy the dict when every field lives there (no class on the
    way up declares slots) and ``__init__`` only stores the fields: no
    validator, converter or post-init hook would be skipped.
    """
    fields = attrs.fields(cls)
    copyable = (
        all(not getattr(base, "__slots__", ()) for base in cls.__mro__[:-1])
        and all(a.init and a.validator is None and a.converter is None for a in fields)
        and not hasattr(cls, "__attrs_post_init__")
        and not hasattr(cls, "__attrs_pre_init__")
    )
    return len(fields) if copyable else 0


_new = object.__new__
_setattr = object.__setattr__  # frozen values refuse plain assignment


def replace(inst: V, **changes: Any) -> V:
    """A copy of the attrs value ``inst`` with some fields changed.

    Does what ``attrs.evolve`` does for plain classes (no private or aliased
    fields, at least two of them) at a fraction of the cost, which matters in
    the rules' hot path.  An unknown field name raises ``KeyError``.

    The games' states keep their fields in a dict rather than slots so that
    a copy is one dict copy (about 0.5 µs) instead of a call to ``__init__``
    that stores every field one by one (about 2 µs for Jaipur's eighteen);
    the rules copy a state at least once a decision.
    """
    cls = type(inst)
    count = _dict_fields(cls)
    # The dict must hold the fields and nothing else (attrs may keep a cached hash there).
    if count and len(before := inst.__dict__) == count:
        fields = before.copy()
        fields.update(changes)
        if len(fields) != count:  # a name that is no field was added
            raise KeyError(", ".join(sorted(changes.keys() - before.keys())))
        copy = _new(cls)
        _setattr(copy, "__dict__", fields)
        return copy
    get_all, position = _layout(cls)
    unknown = changes.keys() - position.keys()
    if unknown:
        raise KeyError(", ".join(sorted(unknown)))
    values = dict(zip(position, get_all(inst), strict=True))
    values.update(changes)
    return cls(**values)


def replace_at(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``items`` with the element at ``index`` replaced by ``value``."""
    # Through a list: two allocations, where slicing and joining make four.
    changed = list(items)
    changed[index] = value
    return tuple(changed)


def copied(cls: type[V], source: object, **own: Any) -> V:
    """A new ``cls`` value whose fields are ``own``, and for the rest ``source``'s of the same name.

    Turns a state into an observation and back: each field the two share
    passes as it is, and ``own`` gives the ones worked out (a size instead of
    a deck, the viewer's own hand) or blanked.  Only the fields ``cls``
    declares are read, so nothing passes that ``cls`` does not name; a field
    with no value either way raises ``AttributeError``.
    """
    names, get = _passing(cls, frozenset(own))
    return cls(**dict(zip(names, get(source), strict=True)), **own)


@cache
def _passing(cls: type, own: frozenset[str]) -> tuple[tuple[str, ...], Callable[[Any], Any]]:
    """The fields of ``cls`` that :func:`copied` takes from its source, and one getter of all."""
    names = tuple(a.name for a in attrs.fields(cls) if a.name not in own)
    get = attrgetter(*names)
    return names, get if len(names) > 1 else lambda source: (get(source),)


class KeptByIdentity(Generic[K, T]):
    """``work(value)`` kept by the identity of the (immutable) value itself, which is held
    meanwhile so that its id is not reused; at most ``most`` values, then all are let go.

    The states of a search share most of their parts (a seat's expeditions, a
    deck, the goals) from one state to the next, so the same object is asked
    about again and again.  Any thread may use one: at worst a value cleared
    away meanwhile is worked out again.
    """

    def __init__(self, work: Callable[[K], T], most: int) -> None:
        self._work, self._most = work, most
        self._kept: dict[int, tuple[K, T]] = {}

    def __call__(self, source: K) -> T:
        found = self._kept.get(id(source))
        if found is not None and found[0] is source:
            return found[1]
        value = self._work(source)
        if len(self._kept) >= self._most:
            self._kept.clear()
        self._kept[id(source)] = (source, value)
        return value
