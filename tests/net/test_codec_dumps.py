"""Frames are written by orjson, and read by every client as the standard library wrote them."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from karavan_net.codec import dumps


def stdlib(data: object) -> str:
    """``data`` as the table protocol wrote it with the standard library."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


# What a message's data holds: whole numbers, texts of any characters, flags, nothing, and
# lists and objects of them (an object's keys may be whole numbers: cattrs leaves a dict's).
SCALARS = st.none() | st.booleans() | st.integers() | st.text()
DATA = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(st.text() | st.integers(-(2**63), 2**63 - 1), inner, max_size=5)
    ),
    max_leaves=30,
)


@given(DATA)
def test_a_frame_is_the_text_the_standard_library_writes(data):
    assert dumps(data) == stdlib(data)


def test_what_orjson_does_not_write_is_written_as_before():
    for data in ({"seed": 10**30}, ["\ud800 alone"], {"n": [-(2**64)]}):
        assert dumps(data) == stdlib(data)
