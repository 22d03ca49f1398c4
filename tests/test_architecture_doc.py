"""docs/ARCHITECTURE.md names the code it describes: every dotted name it cites in backticks
(``karavan_core.referee.Referee.decide``, a module, a class, a function or a method) must
import, so the map cannot drift from the territory unnoticed."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

DOC = Path(__file__).parent.parent / "docs" / "ARCHITECTURE.md"
CITED = re.compile(r"`((?:karavan_core|karavan_net|karavan_tui)(?:\.\w+)+)`")


def resolve(name: str) -> object:
    """The object ``name`` (a dotted path) denotes: the longest importable module, then
    attributes."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            found = getattr(found, attribute)
        return found
    raise ModuleNotFoundError(name)


def test_every_name_the_architecture_cites_exists():
    names = sorted(set(CITED.findall(DOC.read_text(encoding="utf-8"))))
    assert len(names) >= 40, "the map cites the code it describes"
    missing = []
    for name in names:
        try:
            resolve(name)
        except (ModuleNotFoundError, AttributeError) as error:
            missing.append(f"{name}: {error}")
    assert not missing, "\n".join(missing)
