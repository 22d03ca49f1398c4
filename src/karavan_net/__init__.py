"""Network play: a host that referees a table, and the clients that join it.

The host (:mod:`~karavan_net.host`) is a :class:`~karavan_core.referee.Referee`
with its connections and its table file (:mod:`~karavan_net.storage`); it
speaks to each client in that player's observations only
(:mod:`~karavan_net.protocol`), over WebSockets served by aiohttp
(:mod:`~karavan_net.server`).  A client (:mod:`~karavan_net.client`) is the
app's remote table or a headless bot (:mod:`~karavan_net.bot_client`).
Nothing here imports Textual or rich: the app sits on top.
"""
