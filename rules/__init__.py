"""Lagoon's rules engine: pure game logic with no terminal or UI imports.

Start with `Engine.new(load_content(), ["Ana", "Ben"], seed=1)`; read
`engine.pending`, answer with `engine.choose(option_id)`.
"""
from .cards import METALS, Content
from .decision import Decision, Option, Rejection
from .engine import Engine, clone, decide, replay, state_from_json, state_to_json
from .loader import ContentError, check_content, load_content
from .view import redact, view

__all__ = [
    "METALS", "Content", "Decision", "Option", "Rejection", "Engine", "clone", "decide", "replay",
    "state_from_json", "state_to_json", "ContentError", "check_content", "load_content", "redact", "view",
]
