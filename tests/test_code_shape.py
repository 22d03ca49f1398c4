"""The measures the code keeps: short functions, classes of a readable size, comments that say why.

Every module of ``src`` fits in 600 lines, every function in 60 and every class in 400
(a rules module is split by kind of decision, its shared helpers public in their
own module, before it grows past a reader's hold), and no comment or
docstring tells the code's history (an issue number, what it "used to" do, what it
"was" and is "now"): that story lives in the commits and ``docs/``.  The engine holds
to all of it; the app and the network layer still have the offenders listed in
:data:`KNOWN`, each to be made to fit and struck off.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
MAX_FUNCTION = 60
MAX_CLASS = 400
MAX_MODULE = 600

# In a comment or a docstring: an issue's number, or what the code used to do.
HISTORY = re.compile(r"\bissue \d+|(?<!be )(?<!is )(?<!are )\bused to\b", re.IGNORECASE)
# In a comment: what something was, and is now.
WAS_NOW = re.compile(r"\bwas\b.*\bnow\b", re.IGNORECASE)

# Offenders outside the engine that remain for now, by "path:name" (paths under src/).
KNOWN = frozenset(
    {
        "karavan_net/serve/migrations/versions/0001_first.py:upgrade",
    }
)


def sources() -> Iterator[tuple[str, str]]:
    """Each Python file of ``src``: its path under ``src`` and its text."""
    for path in sorted(SRC.rglob("*.py")):
        yield path.relative_to(SRC).as_posix(), path.read_text(encoding="utf-8")


def oversized(name: str, text: str) -> Iterator[str]:
    """The module, functions and classes of one file longer than the measures allow."""
    lines = len(text.splitlines())
    if lines > MAX_MODULE:
        yield f"{name}:module: a module of {lines} lines (at most {MAX_MODULE})"
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            most, what = MAX_FUNCTION, "function"
        elif isinstance(node, ast.ClassDef):
            most, what = MAX_CLASS, "class"
        else:
            continue
        assert node.end_lineno is not None
        lines = node.end_lineno - node.lineno + 1
        if lines > most:
            yield f"{name}:{node.name}: a {what} of {lines} lines (at most {most})"


def history(name: str, text: str) -> Iterator[str]:
    """The comments and docstrings of one file that tell history rather than why."""
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT and (
            HISTORY.search(token.string) or WAS_NOW.search(token.string)
        ):
            yield f"{name}:{token.start[0]}: {token.string.strip()}"
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = ast.get_docstring(node)
            found = HISTORY.search(doc) if doc else None
            if found:
                where = getattr(node, "name", "the module")
                yield f"{name}:{where}: the docstring says {found.group(0)!r}"


def private_imports(name: str, text: str) -> Iterator[str]:
    """Where one file of ours reaches for another module's private name (``_x``): what a
    module shares is public, in the module that owns it (third-party privates, patched on
    purpose in ``textual_fixes``, are not ours to judge here)."""
    tree = ast.parse(text)
    ours: set[str] = set()  # names bound to our modules by ``import``/``from ... import``
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("karavan"):
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    yield f"{name}:{node.lineno}: imports {node.module}.{alias.name}"
                ours.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            ours.update(a.asname or a.name for a in node.names if a.name.startswith("karavan"))
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in ours
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
        ):
            yield f"{name}:{node.lineno}: reads {node.value.id}.{node.attr}"


def known(offence: str) -> bool:
    """Whether ``offence`` (as :func:`oversized` words it) is one of :data:`KNOWN`."""
    return offence.split(": ", 1)[0] in KNOWN


def test_functions_and_classes_fit_their_measures():
    found = [o for name, text in sources() for o in oversized(name, text) if not known(o)]
    assert not found, "\n".join(found)


def test_comments_and_docstrings_say_why_not_history():
    found = [o for name, text in sources() for o in history(name, text)]
    assert not found, "\n".join(found)


def test_no_module_reaches_for_anothers_private_names():
    found = [o for name, text in sources() for o in private_imports(name, text)]
    assert not found, "\n".join(found)


def test_the_engine_has_no_known_offender():
    assert not [entry for entry in KNOWN if entry.startswith("karavan_core/")]


def test_every_known_offender_still_offends():
    """An offender made to fit is struck off the list (so the list only shrinks)."""
    still = {o.split(": ", 1)[0] for name, text in sources() for o in oversized(name, text)}
    assert not KNOWN - still, sorted(KNOWN - still)


def test_the_checks_catch_what_they_look_for():
    long_body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION))
    assert list(oversized("m.py", f"def f():\n{long_body}\n"))
    assert not list(oversized("m.py", "def f():\n    return 1\n"))
    assert list(oversized("m.py", "x = 1\n" * (MAX_MODULE + 1)))
    assert list(history("m.py", "x = 1  # as asked in issue 12\n"))
    assert list(history("m.py", "x = 1  # it was slow, now it is fast\n"))
    assert list(history("m.py", 'def f():\n    """It used to loop."""\n'))
    assert not list(history("m.py", 'def f():\n    """A key that can be used to sign."""\n'))
    assert list(private_imports("m.py", "from karavan_core.rules import _helper\n"))
    assert list(private_imports("m.py", "from karavan_core import rules\nrules._helper()\n"))
    assert not list(private_imports("m.py", "from textual.widgets import _toast\n"))
    assert not list(private_imports("m.py", "from karavan_core.rules import helper\n"))


def test_every_games_table_package_has_the_same_files_for_the_same_jobs():
    """ARCHITECTURE.md's table of a game's table package holds for all four games."""
    tables = SRC / "karavan_tui" / "tables"
    for package in sorted(p for p in tables.iterdir() if (p / "__init__.py").exists()):
        files = {path.name for path in package.iterdir()}
        core = {"table.py", "zones.py", "players.py", "faces.py", "gestures.py"}
        assert core | {f"{package.name}.tcss"} <= files, package.name
