"""One package per game, each exposing ``GAME`` (see :mod:`karavan_core.registry`)."""
