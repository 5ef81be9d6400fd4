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
  who may see what                         view.py, known.py (a view read back as a state)
  what a seat is sent, and who sends it    seat.py (one seat's message, the only thing a screen
                                             or a bot reads), host.py (a game played through
                                             those messages: all the app asks of the rules),
                                             playback.py (a recorded game stepped through),
                                             results.py (a finished game's ranking)
  the log in words                         narrate.py
  what comes from outside                  files.py (reading a file), audit.py (a game log
                                           checked), names.py (players' names)
  computer players                         bots/ (they read only seat.py's message and the
                                             public names below), simulate.py (games played
                                             headless, by bots or at random)
  work done once per content               memo.py
  this table and the public names          __init__.py
"""

from .actions import equipment_activity, island_activity
from .actions.deals import closing_spent
from .cards import METALS, Content
from .choose import NoLegalChoice, pending
from .decision import Ask, Decision, Option, Rejection
from .engine import Engine, clone, decide, replay, state_from_json, state_to_json
from .known import known_state
from .loader import ContentError, check_content, load_content
from .scoring import measure, vp_at
from .state import MONEY, Gallery, GameState
from .view import View, redact, view

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
    # What a player may ask of the rules about the game as its seat knows it (the computer
    # players of rules/bots use these and rules.seat, nothing else of the engine):
    "MONEY",  # the good that is a dollar, beside the METALS (as options' goods and costs name it)
    "known_state",  # a seat's view as a GameState, hidden things blank
    "measure",  # an objective's measure for a seat now
    "vp_at",  # what an objective pays at a measure
    "island_activity",  # what an island's action space does: (activity kind, its fixed data)
    "equipment_activity",  # what an equipment card's ability does, the same way
    "closing_spent",  # whether a deal action may no longer close a deal this round (one a round)
    # the types of what some of the names above give, for annotations
    "GameState",  # known_state's, replay's (the fields of a view, read back)
    "Gallery",  # a gallery on a mining site of a GameState
    "View",  # view's: a seat's view as JSON data
    "Ask",  # Engine.asking's: who decides, with every candidate
]
