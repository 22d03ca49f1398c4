"""Crash reports: what to keep when something unexpected stops the app.

The game itself is safe in its autosave; the report holds what a developer
needs (the traceback, the versions, the game and its save) and is written
beside the saves, or in the system's temporary folder if that fails.
"""

from __future__ import annotations

import platform
import tempfile
import traceback
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from karavan_core.version import __version__


def crash_report_text(error: BaseException, context: Sequence[tuple[str, str]]) -> str:
    """The report of ``error``, with ``context`` lines (label, value) before the traceback."""
    import textual

    lines = [
        "Karavan stopped on an unexpected error.",
        "",
        f"karavan {__version__}, textual {textual.__version__}, "
        f"Python {platform.python_version()} on {platform.platform()}",
        f"time: {datetime.now().isoformat(timespec='seconds')}",
        *(f"{label}: {value}" for label, value in context),
        "",
        *traceback.format_exception(error),
    ]
    return "\n".join(line.rstrip("\n") for line in lines) + "\n"


def write_crash_report(
    folder: Path, error: BaseException, context: Sequence[tuple[str, str]]
) -> Path | None:
    """Write the report of ``error`` and return its path (``None`` if no folder would take it)."""
    text = crash_report_text(error, context)
    name = f"crash-{datetime.now().strftime('%Y%m%d-%H%M%S')}.txt"
    for place in (folder, Path(tempfile.gettempdir())):
        try:
            place.mkdir(parents=True, exist_ok=True)
            path = place / name
            path.write_text(text, encoding="utf-8")
        except OSError:
            continue
        return path
    return None
