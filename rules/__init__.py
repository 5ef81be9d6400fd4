"""Lagoon's rules engine: pure game logic with no terminal or UI imports.

Start with `Engine.new(load_content(), ["Ana", "Ben"], seed=1)`; read
`engine.pending`, answer with `engine.choose(option_id)`.

Where each part of the rulebook is done (sections as titled in the Miner's
Lagoon rulebook, miners-lagoon-rulebook.txt; paths under rules/; each module
is listed once, beside the section it mostly serves):

  Rulebook section                         Module
  ---------------------------------------  ----------------------------------------------------
  THE BOARD; COMPONENTS                    cards.py: the decks, tiles and board as data
                                           loader.py: content/*.toml read and checked
                                           registry.py: the names the content may use
  SETUP; MAIN BOARD SETUP; PHASES OF       flow.py: setup, island selection, turns, end of
    GAMEPLAY (1 Island Selection, 3 End      round, wages, end of game, in that order
    of Round); PAYMENT CHECK
  SETUP (objectives kept, corporation      choose.py: the choice the game waits on, and its
    chosen); 1) Island Selection             resolution (the actions' steps too)
  2) Action                                action_choice.py: an island's spaces, the extra
                                             merchants, equipment once a round, pass
  BOARD ACTIONS                            actions/__init__.py: each action's name and activity
                                           actions/base.py: what every action has in common
  DEPART ISLAND                            actions/depart.py
  BUY AN EQUIPMENT                         actions/equipment.py
  DRAW & PLACE 2 GALLERIES                 actions/galleries.py
  OPERATE MINING SITE                      actions/mining.py (and the Underground and Heavy
                                             Duty Loaders, the Demolition Kit)
  BUY AN ARTIFACT                          actions/artifacts.py
  RECRUIT A MERCHANT; RECRUIT A MINER      actions/recruiting.py
  ENRICHMENT TRANSACTION                   actions/enrichment.py (and the Melting Pot,
                                             Smelting Furnace, Elevator, Control Room, Crushers)
  MAKE A SHIPMENT                          actions/shipments.py
  DRAW OR CLOSE A DEAL                     actions/deals.py (and the Generator, Bulldozer,
                                             Rescue Chamber, Air Compressor)
  TRADE                                    actions/trade.py (and the Tipper)
  Equipment Cards in Detail: the Copper,   actions/payouts.py
    Iron, Gold and Silver Loaders; the
    Rock Cutter
  END OF GAME (objectives, ties)           scoring.py

The rest is how the engine works rather than a rule:

  the game as data                         state.py, events.py, evolve.py (an event applied),
                                           record.py (their classes), codec.py (to JSON and back)
  asking and answering                     decision.py, engine.py (the one entry point), undo.py
  who may see what                         view.py
  the log in words                         narrate.py
  what comes from outside                  files.py (reading a file), audit.py (a game log
                                           checked), names.py (players' names)
  computer players                         bot.py, simulate.py
  work done once per content               memo.py
  this table and the public names          __init__.py
"""

from .cards import METALS, Content
from .choose import NoLegalChoice, pending
from .decision import Decision, Option, Rejection
from .engine import Engine, clone, decide, replay, state_from_json, state_to_json
from .loader import ContentError, check_content, load_content
from .view import redact, view

__all__ = [
    "METALS",
    "Content",
    "NoLegalChoice",
    "pending",
    "Decision",
    "Option",
    "Rejection",
    "Engine",
    "clone",
    "decide",
    "replay",
    "state_from_json",
    "state_to_json",
    "ContentError",
    "check_content",
    "load_content",
    "redact",
    "view",
]
