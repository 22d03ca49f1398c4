"""Saving and loading matches.

A save is a versioned JSON file holding the seed, options, seats and every
decision (see :mod:`~karavan_core.saves.format`); loading replays it, so a
damaged or edited file is refused in one line and never trusted.  Files are
written atomically and read safely (:mod:`~karavan_core.saves.files`).
Loading never uses pickle, eval or exec.
"""

from karavan_core.saves.codec import (
    action_union,
    converter_for,
    structure_action,
    structure_actions,
    structure_state,
    unstructure_action,
    unstructure_actions,
    unstructure_state,
)
from karavan_core.saves.files import (
    MAX_BYTES,
    MAX_STEM,
    SAVES_ENV,
    FileProblem,
    atomic_write,
    check_saves_dir,
    check_stem,
    check_writable,
    default_saves_dir,
    new_save_path,
    read_limited,
    remove_abandoned_temps,
    save_files,
)
from karavan_core.saves.format import (
    FORMAT,
    FORMAT_VERSION,
    Envelopes,
    SaveError,
    SaveSummary,
    checked_envelope,
    envelope,
    latest_save,
    list_saves,
    load_match,
    match_from_envelope,
    read_envelope,
    resumable,
    save_match,
    summarize,
)
from karavan_core.saves.lock import OPEN_ELSEWHERE, OpenElsewhere, SaveLock, open_elsewhere

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "MAX_BYTES",
    "MAX_STEM",
    "OPEN_ELSEWHERE",
    "SAVES_ENV",
    "Envelopes",
    "FileProblem",
    "OpenElsewhere",
    "SaveError",
    "SaveLock",
    "SaveSummary",
    "action_union",
    "atomic_write",
    "check_saves_dir",
    "check_stem",
    "check_writable",
    "checked_envelope",
    "converter_for",
    "default_saves_dir",
    "envelope",
    "latest_save",
    "list_saves",
    "load_match",
    "match_from_envelope",
    "new_save_path",
    "open_elsewhere",
    "read_envelope",
    "read_limited",
    "remove_abandoned_temps",
    "resumable",
    "save_files",
    "save_match",
    "structure_action",
    "structure_actions",
    "structure_state",
    "summarize",
    "unstructure_action",
    "unstructure_actions",
    "unstructure_state",
]
