"""Computer players: clients of the seat message, like any screen.

A bot is given the message of its seat (`rules.seat.SeatScene`) when that
seat must decide, and answers with the id of one of the message's options.
It reads nothing else of the game, so it sees exactly what its seat sees and
could sit in another process. Besides `rules.seat` it may use the printed
content (`rules.cards`) and the names the `rules` package exports, which
include the few public questions a player may ask of the rules about the
game as it knows it (`known_state`, `measure`, `closing_spent`...);
tests/test_bots_boundary.py holds every module here to that, and to picking
options by what they are about rather than by writing or splitting ids.

  levels.py      the levels a computer player is seated at (easy, normal, hard), and the random player
  heuristic.py   the `Bot` (normal; easy with noise): setup choices, the action to take, following its plan
  search.py      the hard player (`SearchPlayer`): the Bot's best options played out in sampled worlds
  worlds.py      the worlds a seat cannot tell apart: its view with the cards it cannot see dealt at random
  forecast.py    the VP a player may still expect, from what it holds as a round begins (scores a rollout)
  outlook.py     the valuation: goods, actions and equipment priced in VP, with plans
  plans.py       a plan's steps, described by what the options are about
  starting.py    what corporations and objectives are worth at setup
"""

from .heuristic import Bot
from .levels import LEVELS, RandomPlayer, computer_player
from .search import SearchPlayer

__all__ = ["Bot", "LEVELS", "RandomPlayer", "SearchPlayer", "computer_player"]
