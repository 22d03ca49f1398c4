"""The app opening a hosted table at once: ``karavan join`` and the host's own terminal."""

from __future__ import annotations

from pathlib import Path

from karavan_net.client import TableClient
from karavan_tui.app import KaravanApp
from karavan_tui.config import AppConfig
from karavan_tui.net.screen import open_table


class TableApp(KaravanApp):
    """Karavan's app that opens ``client``'s table (already joined) when it starts."""

    def __init__(
        self,
        config: AppConfig,
        client: TableClient,
        *,
        hosting: bool = False,
        save_path: Path | None = None,
        invitation: str | None = None,
    ) -> None:
        super().__init__(config)
        self.client = client
        self.hosting = hosting
        self.save_path = save_path
        self.invitation = invitation

    def on_mount(self) -> None:
        """The table (then Textual runs the app's own ``on_mount``: settings and size)."""
        open_table(self, self.client, hosting=self.hosting, save_path=self.save_path)
        if self.invitation:
            self.notify(self.invitation, title="Hosting", timeout=30)
