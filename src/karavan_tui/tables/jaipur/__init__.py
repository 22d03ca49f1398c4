"""Jaipur's table in three parts: the gestures (what a click or a key means, without Textual),
the zones (widgets drawn from reactive data) and the table that wires them (``table.py``);
``layout.py`` keeps the market's cards in their places."""
