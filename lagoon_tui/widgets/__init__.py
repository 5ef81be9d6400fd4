"""The board panels. Each one redraws itself from a `Scene` with `show(scene)`."""

from .enrichment_center import EnrichmentCenterPanel
from .island_panel import IslandPanel
from .log import LogPanel
from .market import MarketPanel
from .mining_site import MiningSitePanel
from .player_board import PlayerBoard
from .round_track import RoundTrackPanel
from .score_track import ScoreTrackPanel

__all__ = [
    "EnrichmentCenterPanel",
    "IslandPanel",
    "LogPanel",
    "MarketPanel",
    "MiningSitePanel",
    "PlayerBoard",
    "RoundTrackPanel",
    "ScoreTrackPanel",
]
