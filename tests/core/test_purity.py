"""The core stays pure: karavan_core never imports the terminal libraries."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import karavan_core

CORE = Path(karavan_core.__file__).parent
UI_PACKAGES = {"textual", "rich", "karavan_tui"}


def imported_top_level_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_no_core_module_imports_the_ui():
    offenders = {
        str(path.relative_to(CORE)): sorted(imported_top_level_names(path) & UI_PACKAGES)
        for path in CORE.rglob("*.py")
        if imported_top_level_names(path) & UI_PACKAGES
    }
    assert offenders == {}


def test_importing_every_game_loads_no_ui_module():
    code = (
        "import sys, karavan_core, karavan_core.bots\n"
        "for g in karavan_core.all_games(): pass\n"
        "ui = ('textual', 'rich', 'karavan_tui')\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ui)\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_the_games_subpackage_is_not_shadowed():
    """``karavan_core.games`` is the package of game modules; the registry lists them."""
    code = (
        "import karavan_core\n"
        "from karavan_core.games.karakum import GAME\n"
        "print(karavan_core.games.__name__, [g.name for g in karavan_core.all_games()][0])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["karavan_core.games", "karakum"]


def test_every_type_ignore_says_why():
    """A ``# type: ignore[code]`` is followed on its line by a comment giving the reason."""
    src = CORE.parent
    bare = [
        f"{path.relative_to(src)}:{number}"
        for path in src.rglob("*.py")
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if "type: ignore" in line and "#" not in line.split("type: ignore", 1)[1]
    ]
    assert bare == []
