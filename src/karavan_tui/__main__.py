"""``python -m karavan_tui``: the ``karavan`` command (what ``karavan web`` runs in each tab)."""

from karavan_tui.cli import run

if __name__ == "__main__":
    run()
