"""Messages as JSON text frames: one strict cattrs codec for each set of message classes.

Every message is a frozen attrs class, tagged with its class name
(``{"type": "Decide", ...}``).  What a peer sends is read as data: a frame that
is not JSON, not one of the expected messages or holds an unknown key is
refused with a sentence (:class:`ProtocolError`), never trusted.  Frames are
written by orjson (:func:`dumps`): a server writes one for every seat after
every decision, and the standard library's encoder took most of that time.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Generic, NewType, TypeVar, Union

import cattrs
import orjson
from cattrs.gen import make_dict_unstructure_fn
from cattrs.preconf.json import make_converter
from cattrs.strategies import configure_tagged_union

from karavan_core.text import parse_json

Json = NewType("Json", object)
"""JSON-ready game data (an observation, a decision): carried as it is, never walked."""

M = TypeVar("M")


def dumps(data: object) -> str:
    """``data`` (JSON-ready) as compact JSON text, its characters as they are.

    The same text as ``json.dumps(data, separators=(",", ":"), ensure_ascii=False)``,
    some ten times quicker.  What orjson does not write (an integer past 64 bits,
    a string with a lone surrogate) is written by the standard library as before.
    """
    try:
        return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


class ProtocolError(ValueError):
    """A frame that is not a message of the protocol; ``str()`` says why, as a sentence."""


def _strict(kind: type) -> Any:
    def check(value: object, _: type) -> object:
        if type(value) is not kind:
            raise TypeError(f"expected {kind.__name__}, not {type(value).__name__}")
        return value

    return check


def strict_converter() -> cattrs.Converter:
    """A converter that reads a peer's data strictly (no unknown key, no ``1`` for ``True``
    nor ``"1"`` for ``1``) and carries :data:`Json` as it is.

    A field left at its default is not sent: a message a newer version extends with
    optional fields reads the same to an older peer until the new fields are used.
    """
    conv = make_converter(forbid_extra_keys=True, omit_if_default=True)
    for kind in (int, bool, str):
        conv.register_structure_hook(kind, _strict(kind))
    conv.register_structure_hook(Json, lambda value, _: value)
    conv.register_unstructure_hook(Json, lambda value: value)
    return conv


_reader: ContextVar[int | None] = ContextVar("reader", default=None)  # whom a frame is for


def revised_converter(
    since: dict[type, dict[str, int]], *, omit_defaults: bool = False
) -> cattrs.Converter:
    """A :func:`strict_converter` that writes each message for its reader's revision: the
    fields ``since`` names (by message, the revision that added each) are left out for a
    reader of an older revision (see :func:`written_for`).  Those messages' fields left at
    their defaults are written too, unless ``omit_defaults``."""
    conv = strict_converter()
    for message, added in since.items():
        unstructure: Callable[[Any], dict[str, Any]] = make_dict_unstructure_fn(
            message, conv, _cattrs_omit_if_default=omit_defaults
        )
        written = _for_reader(unstructure, added)
        conv.register_unstructure_hook(message, written)
    return conv


def _for_reader(
    unstructure: Callable[[Any], dict[str, Any]], added: dict[str, int]
) -> Callable[[Any], dict[str, Any]]:
    """``unstructure`` leaving out the fields its reader's revision does not know."""

    def written(message: Any) -> dict[str, Any]:
        data = unstructure(message)
        reader = _reader.get()
        if reader is not None:
            for name, since in added.items():
                if since > reader:
                    data.pop(name, None)
        return data

    return written


@contextmanager
def written_for(minor: int) -> Iterator[None]:
    """Within it, messages are written for a reader of revision ``minor``."""
    token = _reader.set(minor)
    try:
        yield
    finally:
        _reader.reset(token)


class Codec(Generic[M]):
    """Encodes and decodes the messages of ``types`` (named ``what`` in refusals), with
    ``converter`` (a :func:`strict_converter`, perhaps with hooks of its own) if given."""

    def __init__(
        self, types: tuple[type, ...], what: str, converter: cattrs.Converter | None = None
    ) -> None:
        self.types = types
        self.what = what
        self._names = {kind.__name__ for kind in types}
        self._union: Any = Union[types]  # noqa: UP007 - a runtime union of classes
        conv = strict_converter() if converter is None else converter
        configure_tagged_union(
            self._union, conv, tag_name="type", tag_generator=lambda cls: cls.__name__
        )
        self.converter: cattrs.Converter = conv
        self._unstructure = conv.get_unstructure_hook(self._union)  # found once, not per frame

    def __contains__(self, message: object) -> bool:
        return isinstance(message, self.types)

    def encode(self, message: M) -> str:
        """``message`` as one JSON text frame."""
        return dumps(self._unstructure(message))

    def decode(self, text: str | bytes) -> M:
        """The message in ``text``; :class:`ProtocolError` if it is none of ``types``."""
        if not isinstance(text, str):
            raise ProtocolError("Frames are JSON text, not binary data.")
        try:
            data = parse_json(text)
        except RecursionError:
            raise ProtocolError("That message is nested far too deep.") from None
        except ValueError:
            raise ProtocolError("That message is not JSON.") from None
        if not isinstance(data, dict) or data.get("type") not in self._names:
            raise ProtocolError(f"That message is not one of the {self.what}'s.")
        try:
            message: M = self.converter.structure(data, self._union)
        except RecursionError:
            raise ProtocolError("That message is nested far too deep.") from None
        except Exception:  # cattrs explains in a group of errors: one sentence is enough here
            raise ProtocolError(f"That {data['type']} message does not fit the protocol.") from None
        return message
