"""The app's side of network play: the screens that join a hosted table and play at it.

The host, the protocol and the clients live in :mod:`karavan_net`, which
imports no Textual.
"""
