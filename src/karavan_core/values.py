"""Helpers for the frozen attrs values the games are made of."""

from __future__ import annotations

from functools import cache
from typing import Any, TypeVar

import attrs

T = TypeVar("T")


@cache
def _init_names(cls: type) -> tuple[str, ...]:
    return tuple(a.name for a in attrs.fields(cls) if a.init)


def replace(inst: T, **changes: Any) -> T:
    """A copy of the attrs value ``inst`` with some fields changed.

    Does what ``attrs.evolve`` does for plain classes (no private or aliased
    fields) at about half the cost, which matters in the rules' hot path.
    """
    cls = type(inst)
    get = changes.get
    missing = _MISSING
    args = []
    for name in _init_names(cls):
        value = get(name, missing)
        args.append(getattr(inst, name) if value is missing else value)
    return cls(*args)


_MISSING = object()
