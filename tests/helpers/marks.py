"""The player boards' marks (`*`) of what changed since a player's last move, checked against the game
as everyone saw it then and sees it now (issue 34, point 1)."""

from __future__ import annotations

from lagoon_tui.screens.game import GameScreen
from lagoon_tui.widgets import PlayerBoard
from rules.seat import plural
from tests.helpers.drive import widget_text
from tests.helpers.terminal import flat

BOARD = ("money", "vp", "island", "corporation", "merchants", "merchants_used", "miners", "miners_used")
BOARD += ("raw", "artifacts", "shipments", "deals_closed")
HANDS = ("objectives", "objective_offer", "deals")  # secret: everyone may know how many cards each holds


def board(player: dict) -> tuple:
    """A player's board as everyone may see it: the hands by their sizes only."""
    return (
        {key: player[key] for key in BOARD},
        {metal: sorted(levels or ()) for metal, levels in player["enriched"].items()},
        sorted(player["equipment"]),
        sorted(player["equipment_used"]),
        {hand: len(player[hand]) for hand in HANDS},
    )


class AfterMoves:
    """The game as everyone saw it just after each seat's last move (what the board's marks count from)."""

    def __init__(self, host) -> None:
        self.host = host
        self.views: dict[int, dict] = {}
        self.decider = host.turn().seat
        host.on_change(self.changed)

    def changed(self) -> None:
        if self.decider is not None:
            self.views[self.decider] = self.host.scene(None).view
        self.decider = self.host.turn().seat


def check_boards(screen: GameScreen, seat: int, then: dict, now: dict) -> int:
    """Each player board on `screen` is marked exactly when it changed, as everyone may see it, from
    `then` (the view just after `seat`'s last move) to `now`; the money says by how much; a hand's mark
    says only how many cards it holds. Returns how many boards are marked."""
    marked = 0
    for panel in screen.query(PlayerBoard):
        old, new = then["players"][panel.seat], now["players"][panel.seat]
        shown = flat(widget_text(panel, width=400))
        differs = board(old) != board(new)
        assert ("*" in shown) == differs, (panel.seat, shown, board(old), board(new))
        marked += differs
        if new["money"] != old["money"]:
            assert f"${new['money']} *{new['money'] - old['money']:+d}" in shown, shown
        if panel.seat != seat and len(new["deals"]) != len(old["deals"]):
            assert f"{plural(len(new['deals']), 'deal')} in hand *" in shown, shown
    return marked
