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
from typing import Any, Generic, NewType, TypeVar, Union

import cattrs
import orjson
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
