"""The program's version (also written into every save)."""

__version__ = "0.1.0"
