"""Network play: a host that referees a table, and the clients that join it.

The host holds the :class:`~karavan_core.match.Match` and is the only one that
changes it (:mod:`~karavan_tui.net.table`); it speaks to each client in that
player's observations only (:mod:`~karavan_tui.net.protocol`), over WebSockets
served by aiohttp (:mod:`~karavan_tui.net.server`).  A client
(:mod:`~karavan_tui.net.client`) is a terminal table (:mod:`~karavan_tui.net.screen`)
or a headless bot (:mod:`~karavan_tui.net.bot_client`).  Nothing here is part
of the rules engine, which stays pure.
"""
