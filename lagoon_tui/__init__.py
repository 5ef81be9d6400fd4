"""Lagoon's terminal front end: the Textual app and the `lagoon` command.

This package shows the game and turns key presses into choices; every rule
lives in `rules`, which never imports from here.
"""

__all__ = ["__version__"]
__version__ = "0.1.0"
