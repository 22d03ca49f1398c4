"""Karavan's terminal app (Textual): the title screen, the tables, the command line."""
