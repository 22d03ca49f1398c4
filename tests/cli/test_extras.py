"""``pip install karavan`` brings the terminal app alone: the server's libraries and the web
door's are extras. Each test runs Python in a subprocess whose import hook refuses those
libraries, as if the extras were not installed."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from karavan_tui.cli.common import EXTRAS

ALL_EXTRAS = tuple(library for libraries in EXTRAS.values() for library in libraries)

HOOK = """
import importlib.abc, sys

class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in REFUSED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, Refuse())
"""


def without(
    refused: tuple[str, ...], code: str, tmp_path: Path
) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a Python that cannot import the ``refused`` libraries."""
    script = f"REFUSED = {set(refused)!r}\n{HOOK}\n{textwrap.dedent(code)}"
    env = {**os.environ, "KARAVAN_SAVES": str(tmp_path / "saves"), "HOME": str(tmp_path)}
    return subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def test_the_hook_refuses_what_it_should(tmp_path):
    """The check below means something: the server's store needs what the hook refuses."""
    ran = without(ALL_EXTRAS, "import karavan_net.serve.store", tmp_path)
    assert ran.returncode != 0
    assert "ModuleNotFoundError" in ran.stderr


def test_the_app_and_every_command_import_without_the_extras(tmp_path):
    code = """
    import karavan_tui.app, karavan_tui.cli
    from karavan_tui.app import create_app
    from karavan_tui.cli import COMMANDS
    create_app  # the app `karavan new` opens
    print(" ".join(sorted(COMMANDS)))
    """
    ran = without(ALL_EXTRAS, code, tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert {"new", "learn", "online", "join", "serve", "web"} <= set(ran.stdout.split())


def test_saves_lists_without_the_extras(tmp_path):
    code = """
    from karavan_tui.cli import main
    raise SystemExit(main(["saves"]))
    """
    ran = without(ALL_EXTRAS, code, tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert "Traceback" not in ran.stderr


@pytest.mark.parametrize(
    ("command", "extra"),
    [(["serve", "--port", "0"], "server"), (["web", "--port", "0"], "web")],
)
def test_a_command_without_its_extra_says_what_to_install(tmp_path, command, extra):
    code = f"""
    from karavan_tui.cli import main
    raise SystemExit(main({command!r}))
    """
    ran = without(EXTRAS[extra], code, tmp_path)
    assert ran.returncode == 2
    assert ran.stdout == ""
    lines = ran.stderr.splitlines()
    assert lines == [
        f"karavan: karavan {command[0]} needs Karavan's {extra} part: "
        f"pip install 'karavan[{extra}]'"
    ]
