"""The board panels show what a player must see, and nothing a seat may not know.

Each panel is mounted alone in a tiny app, in the compact terminal (80×24,
full width) and in a big one (160×50, in a 40- or 26-column slot as when the
panels stand side by side), fed a Scene from a random legal game, and read
back as the plain text on screen.
"""

from __future__ import annotations

import copy
import dataclasses
import re
from contextlib import asynccontextmanager, contextmanager

import pytest
from rich.console import Console
from rich.segment import Segment
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Static

from lagoon_tui.scene import Scene
from lagoon_tui.widgets import (
    EnrichmentCenterPanel,
    IslandPanel,
    LogPanel,
    MarketPanel,
    MiningSitePanel,
    PlayerBoard,
    RoundTrackPanel,
    ScoreTrackPanel,
)
from lagoon_tui.widgets.island_panel import SHORT_ACTION_NAMES
from lagoon_tui.widgets.mining_site import LEVELS, SiteGrid, gallery_cell
from lagoon_tui.widgets.options import Options
from lagoon_tui.widgets.prompt import PromptPanel
from lagoon_tui.widgets.renderables import Made
from lagoon_tui.widgets.words import deal_needs
from rules.actions import ACTION_NAMES
from rules.choose import merchant_cost
from rules.registry import MINER_ACTIONS
from rules.seat import Choice, Refers
from tests.helpers.scenes import CONTENT, play, scene_at, scene_of, scene_where

SIZES = [
    pytest.param((80, 24), None, id="80x24"),
    pytest.param((160, 50), 40, id="160x50-slot40"),
    pytest.param((160, 50), 26, id="160x50-slot26", marks=pytest.mark.slow),
]
BOARD = CONTENT.board


class Host(App):
    """One panel, in a scrolling slot of `slot` columns (None: the whole width)."""

    def __init__(self, panel: Widget, slot: int | None):
        super().__init__()
        self.panel, self.slot = panel, slot

    def compose(self) -> ComposeResult:
        with Horizontal():
            with VerticalScroll(id="slot") as scroll:
                scroll.styles.width = self.slot or "1fr"
                yield self.panel
            if self.slot:
                yield Static("", id="rest")


def text_of(widget: Widget) -> str:
    """The widget as it is on screen (border and title included), as plain text."""
    return "\n".join(strip.text.rstrip() for strip in widget.render_lines(Region(0, 0, *widget.outer_size)))


async def shown(panel: Widget, scene, size, slot) -> str:
    """Mount `panel`, show it `scene`, and return its text (checking it fits its slot)."""
    async with Host(panel, slot).run_test(size=size) as pilot:
        panel.show(scene)
        await pilot.pause()
        await pilot.pause()
        text = text_of(panel)
        assert panel.outer_size.width <= (slot or size[0])
        return text


def flat(text: str) -> str:
    """The text with borders, line breaks and runs of spaces folded away, for phrases that may wrap."""
    text = re.sub(r"[│┃║╭╮╰╯┏┓┗┛━─]", " ", text)
    return re.sub(r"\s+", " ", text)


# --- island panel ----------------------------------------------------------------


def _someone_took_a_space_before_me(engine) -> bool:
    s = engine.state
    if s.phase != "actions" or s.step is not None:
        return False
    me = s.players[s.current]
    for key, users in s.space_users.items():
        island, action = key.split(":")
        if (
            int(island) == me.island
            and action not in MINER_ACTIONS
            and key not in me.used
            and any(u != me.seat for u in users)
        ):
            return True
    return False


@pytest.mark.parametrize("size, slot", SIZES)
async def test_island_panel_shows_spaces_costs_users_and_ships(size, slot):
    scene = scene_where(_someone_took_a_space_before_me)
    me = scene.player(scene.seat)
    island = me["island"]
    text = await shown(IslandPanel(island), scene, size, slot)
    isl = BOARD.island(island)
    assert re.search(rf"(Island )?{island} · {isl.name}", text.splitlines()[0])
    for action in isl.actions:  # narrow panels use the short names
        assert ACTION_NAMES[action] in text or re.search(rf"(?<!\w){re.escape(SHORT_ACTION_NAMES[action])}\b", text)
    assert "miners" in text or "operate_mining_site" not in isl.actions
    # a space another player took costs the seat at the keyboard more than one merchant
    costs = [merchant_cost_for(scene, key) for key in scene.view["space_users"] if key.startswith(f"{island}:")]
    assert any(c >= 2 for c in costs)
    assert re.search(r"\b[2-4] merch(ants\b|\.)", text)
    # who used a space is written on its row, by name or by the letter of their colour
    rows = text.splitlines()[1:-1]
    for key, users in scene.view["space_users"].items():
        if key.startswith(f"{island}:"):
            for u in users:
                mark = "you took it" if u == scene.seat else rf"\b{scene.marker(u).plain}\b"
                assert any(scene.tag(u).plain in row or re.search(mark, row) for row in rows), key
    # the ship of the seat at the keyboard is docked here, and so are the others at this island
    ships = next(row for row in text.splitlines() if "Ships" in row)
    for p in scene.players:
        if p["island"] == island:  # by name, or by letter where two names do not fit
            assert scene.tag(p["seat"]).plain in ships or re.search(rf"\b{scene.marker(p['seat']).plain}\b", ships)


def merchant_cost_for(scene, key: str) -> int:
    users = scene.view["space_users"].get(key) or []
    return 1 + len({u for u in users if u != scene.seat})


async def test_island_costs_agree_with_the_engine():
    """The cost the panel computes from the view is the engine's own merchant_cost."""
    for engine in play(3, 7):
        s = engine.state
        if _someone_took_a_space_before_me(engine):
            scene = scene_of(engine, log=False)
            for key in s.space_users:
                assert merchant_cost_for(scene, key) == merchant_cost(s, s.current, key)
            return
    pytest.fail("no situation found")


@pytest.mark.parametrize("size, slot", SIZES)
async def test_island_panel_during_island_selection_shows_who_chose_it(size, slot):
    scene = scene_where(lambda e: e.state.phase == "island_selection" and len(e.state.islands_chosen) == 1)
    ((island, seat),) = scene.view["islands_chosen"].items()
    text = await shown(IslandPanel(int(island)), scene, size, slot)
    assert "Chosen by" in text and scene.tag(seat).plain in text
    other = next(i.number for i in BOARD.islands if str(i.number) != island)
    assert "Chosen by: none" in await shown(IslandPanel(other), scene, size, slot)


@pytest.mark.parametrize("size, slot", SIZES)
async def test_island_panel_lists_artifacts_left(size, slot):
    scene = scene_where(lambda e: any(len(v) < 4 for v in e.state.artifacts.values()), seeds=range(200))
    island, left = next((int(i), v) for i, v in scene.view["artifacts"].items() if len(v) < 4)
    text = flat(await shown(IslandPanel(island), scene, size, slot))
    gone = set(BOARD.island(island).artifacts) - set(left)
    listed = text.split("Artifacts left")[1].split(":", 1)[1].split("Action")[0]
    assert all(m in listed for m in left)
    assert not any(m in listed for m in gone)


# --- mining site -----------------------------------------------------------------


def _galleries(view, island):
    for c, column in enumerate(view["sites"][str(island)]["columns"]):
        for level, g in enumerate(column, start=1):
            yield c, level, g


def _my_face_down(engine) -> bool:
    seat = engine.pending.seat
    return seat is not None and any(
        g is not None and not g.face_up and g.placed_by == seat
        for site in engine.state.sites.values()
        for col in site.columns
        for g in col
    )


@pytest.mark.parametrize("size, slot", SIZES)
async def test_mining_site_shows_face_up_galleries_and_question_marks(size, slot):
    scene = scene_at(3, 2, 60)
    for island in BOARD.mining_islands:
        text = await shown(MiningSitePanel(island), scene, size, slot)
        lines = text.splitlines()
        assert f"island {island}" in lines[0]
        l2 = next(i for i, line in enumerate(lines) if "L2" in line)
        l1 = next(i for i, line in enumerate(lines) if "L1" in line)
        assert l2 < l1 < next(i for i, line in enumerate(lines) if "shore" in line)  # level 2 drawn above
        hidden = sum(1 for _, _, g in _galleries(scene.view, island) if g and not g["face_up"])
        grid = "\n".join(line for line in lines if line.strip("│ ").startswith(("L1", "L2")))
        assert grid.count("?") == hidden
        assert "? face down" in text  # the key under the site
        for _, _, g in _galleries(scene.view, island):
            if g and g["face_up"]:
                tile = CONTENT.gallery(g["tile"])
                if tile.metal:
                    assert tile.metal in text
                    assert f"{tile.metal} " + "●" * g["cubes"] + "○" * (tile.cubes - g["cubes"]) in text


@pytest.mark.parametrize("size, slot", SIZES)
async def test_a_face_down_gallery_is_known_only_to_who_placed_it(size, slot):
    found = None
    for seed in range(40):
        for engine in play(3, seed):
            if _my_face_down(engine):
                found = engine
                break
        if found:
            break
    seat = found.pending.seat
    island, tile = next(
        (site.island, g.tile)
        for site in found.state.sites.values()
        for col in site.columns
        for g in col
        if g is not None and not g.face_up and g.placed_by == seat
    )
    t = CONTENT.gallery(tile)
    what = f"{t.metal} {t.cubes}" if t.metal else "empty"
    mine = flat(await shown(MiningSitePanel(island), scene_of(found, seat, log=False), size, slot))
    assert what in mine and "(yours)" in mine
    other = (seat + 1) % 3
    theirs = flat(await shown(MiningSitePanel(island), scene_of(found, other, log=False), size, slot))
    assert "yours" not in theirs and what not in theirs.split("face down")[0] and "? face down" in theirs


def rich_site_table(cells, widths: list[int]) -> Table:
    """The mining site's grid as a Rich table draws it, with columns `widths` wide (the space after included)."""
    table = Table(box=None, padding=(0, 1, 0, 0), show_edge=False, pad_edge=False)
    table.add_column("", no_wrap=True, style="bold")
    for c, width in enumerate(widths):
        table.add_column(f"col {c + 1}", width=width - int(c < len(widths) - 1), header_style="bold", overflow="fold")
    for level in LEVELS:
        table.add_row(f"L{level}", *[column[level] for column in cells])
    return table


@pytest.mark.slow
def test_the_site_grid_draws_what_a_rich_table_draws():
    """Every site of a game, as each seat and nobody sees it, at every width the grid is drawn side by side."""
    console = Console(width=200, force_terminal=True, color_system="truecolor")

    def lines(renderable, width):
        segments = console.render(renderable, console.options.update(width=width))
        return [
            [(s.text, s.style) for s in Segment.simplify(line)]
            for line in Segment.split_and_crop_lines(segments, width, pad=True, include_new_lines=False)
        ]

    compared, wrapped = 0, 0
    for n, engine in enumerate(play(3, 7)):
        if n % 40:
            continue
        for seat in (None, *range(engine.state.seats)):
            scene = scene_of(engine, seat, log=False)
            for site in scene.view["sites"].values():
                cells = [
                    {
                        level: gallery_cell(scene, column[level - 1] if level - 1 < len(column) else None)
                        for level in LEVELS
                    }
                    for column in site["columns"]
                ]
                grid = SiteGrid(cells)
                for width in range(SiteGrid.LABEL + len(cells) * (SiteGrid.MIN_CELL + 1), 90):
                    assert sum(grid.widths(width)) == width - SiteGrid.LABEL
                    drawn = lines(grid, width)
                    assert drawn == lines(rich_site_table(cells, grid.widths(width)), width), (width, cells)
                    compared += 1
                    wrapped += len(drawn) > 3
    assert compared > 1000 and wrapped, (compared, wrapped)  # (narrow widths wrap some cells over two lines)


# --- enrichment center -----------------------------------------------------------


@pytest.mark.parametrize("size, slot", SIZES)
async def test_enrichment_center_draws_each_cube_as_its_owners_letter(size, slot):
    scene = scene_where(lambda e: sum(len(o) for lv in e.state.centre.values() for o in lv) >= 4)
    text = await shown(EnrichmentCenterPanel(), scene, size, slot)
    grid = text.split("=")[0]  # the rows, before the key "R = Ana ..."
    grid = grid.rsplit("\n", 1)[0]
    letters = {"red": "R", "yellow": "Y", "green": "G", "blue": "B"}
    for p in scene.players:
        cubes = sum(levels.count(p["seat"]) for rows in scene.view["centre"].values() for levels in rows)
        assert grid.count(letters[p["colour"]]) == cubes
        assert f"{letters[p['colour']]} = {p['name']}" in text
    for level in range(5):
        assert f"{level}'" in text
    for metal in ("gold", "iron", "copper", "silver"):
        assert metal in grid


# --- score and round tracks ------------------------------------------------------


@pytest.mark.parametrize("size, slot", SIZES)
async def test_score_track_shows_every_score_negative_ones_and_the_goal(size, slot):
    scene = scene_where(lambda e: any(p.vp < 0 for p in e.state.players))
    text = await shown(ScoreTrackPanel(), scene, size, slot)
    for p in scene.players:
        assert re.search(rf"{re.escape(scene.tag(p['seat']).plain)}\s+{p['vp']} VP", text)
    assert any(p["vp"] < 0 for p in scene.players) and re.search(r"-\d+ VP", text)
    assert f"{BOARD.vp_goal} goal" in text
    assert "-5" in text.splitlines()[1]  # the track starts below zero


@pytest.mark.parametrize("size, slot", SIZES)
async def test_round_track_marks_wage_rounds_and_the_current_round(size, slot):
    scene = scene_at(2, 4, 150)
    r = scene.view["round"]
    text = await shown(RoundTrackPanel(), scene, size, slot)
    for w in BOARD.wage_rounds:
        assert f"{w}$" in text
    current = f"[{r}$]" if r in BOARD.wage_rounds else f"[{r}]"
    assert current in text and len(re.findall(r"\[\d+\$?\]", text)) == 1
    assert f"Round {r} of {BOARD.rounds}" in text
    phase = {"island_selection": "Choosing islands", "actions": "Actions"}[scene.view["phase"]]
    assert phase in text


@pytest.mark.parametrize("size, slot", SIZES)
async def test_round_track_keeps_its_height_from_choosing_islands_to_the_actions(size, slot):
    """Its turn-order line is there in both phases: a new phase does not make the screen arrange itself anew."""
    choosing = scene_where(lambda e: e.state.round == 2 and e.state.phase == "island_selection", players=2)
    acting = scene_where(lambda e: e.state.round == 2 and e.state.phase == "actions", players=2)
    panel = RoundTrackPanel()
    async with Host(panel, slot).run_test(size=size) as pilot:
        heights = []
        for scene in (choosing, acting, choosing):
            panel.show(scene)
            await pilot.pause()
            heights.append(panel.outer_size.height)
            if scene is choosing:
                assert "by island" in flat(text_of(panel))
    assert len(set(heights)) == 1, heights


# --- player board ----------------------------------------------------------------


@pytest.mark.parametrize("size, slot", SIZES)
async def test_player_boards_show_money_and_only_my_secrets(size, slot):
    engine = None
    for engine in play(3, 5):
        s = engine.state
        if s.round >= 3 and s.phase == "actions" and all(p.deals for p in s.players):
            break
    me = engine.pending.seat
    scene = scene_of(engine, me, log=False)
    for p in engine.state.players:
        text = await shown(PlayerBoard(p.seat), scene, size, slot)
        words = flat(text)
        assert scene.tag(p.seat).plain in text
        assert f"Money ${p.money}" in words and f"VP {p.vp}" in words
        assert CONTENT.corporations[p.corporation].name in words
        free = p.merchants - p.merchants_used
        assert f"{free} free of {p.merchants}" in words or f"Merchants {free}/{p.merchants} free" in words
        names = [CONTENT.objectives[o].name for o in p.objectives]
        if p.seat == me:
            assert all(n in words for n in names)
            assert "▶ to play" in words
            for d in p.deals:  # one form at every width: "copper 1'+, iron 3'+ → 4 VP", wrapped if need be
                deal = CONTENT.deals[d]
                assert f"{deal_needs(deal.requires)} → {deal.vp} VP" in words
        else:
            assert not any(n in words for n in names)
            assert f"{len(p.objectives)} objectives" in words
            assert f"{len(p.deals)} deal{'s' if len(p.deals) != 1 else ''} in hand" in words
            assert "→" not in words


async def test_a_turn_passing_between_two_other_players_leaves_a_third_board_as_it_was_laid_out():
    """The turn passes from Ana to Ben: Cleo's board, unchanged, is not laid out again (it was, at every turn,
    all four boards of every seat: they kept whose turn it was, not whether it was theirs)."""
    scenes = []
    for engine in play(3, 5):
        scene = scene_of(engine, None, log=False)
        seats = [previous.acting_seat() for previous in scenes[-1:]] + [scene.acting_seat()]
        if scenes and 2 not in seats and seats[0] != seats[1] and scenes[-1].player(2) == scene.player(2):
            scenes.append(scene)
            break
        scenes = [scene]
    assert len(scenes) == 2, "no turn passing between two other players with Cleo's board unchanged"
    board = PlayerBoard(2)
    async with Host(board, None).run_test(size=(160, 50)) as pilot:
        board.show(scenes[0])
        await pilot.pause()
        laid: list[int] = []
        with pytest.MonkeyPatch.context() as patch:
            lay_out = PlayerBoard._lay_out
            patch.setattr(PlayerBoard, "_lay_out", lambda self, width: laid.append(width) or lay_out(self, width))
            board.show(scenes[1])
            await pilot.pause()
        assert laid == []


@contextmanager
def making():
    """The names of the builders that `Note.made` calls while the block runs (the parts made anew)."""
    made: list[str] = []
    with pytest.MonkeyPatch.context() as patch:
        make = Made.__init__
        patch.setattr(Made, "__init__", lambda self, key, part: made.append(key[0].__name__) or make(self, key, part))
        yield made


async def test_a_board_whose_money_changed_makes_and_lays_out_that_line_alone():
    """Each line of a board is made from a few values of the view (`Note.made`): the money going up makes the
    supplies line again, marked, and nothing else of the board is made or laid out by Rich again."""
    engine = next(e for e in play(3, 5) if e.state.phase == "actions" and any(p.equipment for p in e.state.players))
    seat = next(p.seat for p in engine.state.players if p.equipment)
    scene = scene_of(engine, seat, log=False)
    richer = copy.deepcopy(scene.view)
    richer["players"][seat]["money"] += 3
    later = Scene(dataclasses.replace(scene.message, view=richer), scene.content, before=scene.view)
    board = PlayerBoard(seat)
    async with Host(board, None).run_test(size=(160, 50)) as pilot:
        board.show(Scene(scene.message, scene.content, before=scene.view))
        await pilot.pause()
        laid: list[str] = []
        with making() as made, pytest.MonkeyPatch.context() as patch:
            draw = PlayerBoard._draw_part
            patch.setattr(
                PlayerBoard,
                "_draw_part",
                lambda self, part, *rest: laid.append(type(part).__name__) or draw(self, part, *rest),
            )
            board.show(later)
            await pilot.pause()
        assert made == ["supplies_line"] and laid == ["Made"]
        money = scene.player(seat)["money"]
        assert f"Money ${money + 3} *+3" in text_of(board)


async def test_a_space_taken_on_an_island_makes_its_action_rows_again_and_nothing_else_of_it():
    """An island's lines are made from a few values of the view too: another player taking one of its spaces
    makes its rows again (the taker marked), not its ships' or artifacts' line."""
    engine = next(e for e in play(3, 5) if e.state.phase == "actions")
    reader = engine.pending.seat
    scene = scene_of(engine, reader, log=False)
    space = next(s for s in scene.spaces if not s.users and not s.by_miners)
    other = (reader + 1) % 3
    view = copy.deepcopy(scene.view)
    view["space_users"][space.key] = [other]
    spaces = tuple(dataclasses.replace(s, users=(other,)) if s is space else s for s in scene.spaces)
    later = Scene(dataclasses.replace(scene.message, view=view, spaces=spaces), scene.content, before=scene.view)
    island = IslandPanel(space.island)
    async with Host(island, None).run_test(size=(160, 50)) as pilot:
        island.show(Scene(scene.message, scene.content, before=scene.view))
        await pilot.pause()
        with making() as made:
            island.show(later)
            await pilot.pause()
        assert made == ["action_rows"]
        row = next(line for line in text_of(island).splitlines() if space.name in line)
        assert f"{scene.player(other)['name']} [" in row and "*" in row


async def test_a_turn_passing_in_a_round_makes_the_track_again_only_where_it_tells_whose_turn_it_is():
    """The round track's lines are made from their own values: the turn passing in the same round makes its
    heading ("▶ Ben to play") and the turn order again, not the rounds or the wages."""
    scenes: list[Scene] = []
    for engine in play(3, 5):
        scene = scene_of(engine, 0, log=False)
        if scenes and scene.view["phase"] == "actions" == scenes[-1].view["phase"]:
            if scene.view["round"] == scenes[-1].view["round"] and scene.acting_seat() != scenes[-1].acting_seat():
                scenes.append(scene)
                break
        scenes = [scene]
    assert len(scenes) == 2, "no turn passing within a round"
    panel = RoundTrackPanel()
    async with Host(panel, None).run_test(size=(160, 50)) as pilot:
        panel.show(scenes[0])
        await pilot.pause()
        with making() as made:
            panel.show(scenes[1])
            await pilot.pause()
        assert sorted(made) == ["heading", "turn_order"]
        name = scenes[1].player(scenes[1].acting_seat())["name"]
        assert f"▶ {name} [" in text_of(panel)


async def test_the_board_of_the_player_to_play_says_so_in_a_bright_label_and_keeps_its_frame():
    """Whose turn it is shows in the acting board's title, " ▶ to play " in reverse (the accent behind it): the
    frame stays as every board's, since a frame of its own repainted every line of two boards at each turn."""
    engine = next(e for e in play(3, 5) if e.state.phase == "actions")
    scene = scene_of(engine, engine.pending.seat, log=False)
    acting, idle = PlayerBoard(engine.pending.seat), PlayerBoard((engine.pending.seat + 1) % 3)
    async with Host(Vertical(acting, idle), None).run_test(size=(160, 50)) as pilot:
        acting.show(scene)
        idle.show(scene)
        await pilot.pause()
        top = acting.render_lines(Region(0, 0, acting.outer_size.width, 1))[0]
        label = [segment for segment in top if "▶ to play" in segment.text]
        assert label and label[0].style.reverse, list(top)
        assert "▶" not in idle.render_lines(Region(0, 0, idle.outer_size.width, 1))[0].text
        assert acting.styles.border == idle.styles.border


@pytest.mark.parametrize("size, slot", SIZES)
async def test_player_board_shows_cubes_equipment_and_passing(size, slot):
    def rich(engine):
        s = engine.state
        return (
            s.phase == "actions"
            and any(p.passed for p in s.players)
            and any(p.equipment for p in s.players)
            and any(any(p.enriched.values()) for p in s.players)
        )

    scene = scene_where(rich, seeds=range(100))
    for p in scene.players:
        text = await shown(PlayerBoard(p["seat"]), scene, size, slot)
        words = flat(text)
        rows: dict[str, list[str]] = {}  # the first line starting with each word: the grid rows
        for line in text.splitlines()[1:-1]:
            if line.strip("│┃ "):
                first, *rest = line.strip("│┃ ").split()
                rows.setdefault(first, rest)
        for metal, levels in p["enriched"].items():
            raw, *cells = rows[metal]
            assert raw == str(p["raw"][metal])
            assert [c for c in cells[:4] if c != "·"] == [f"{lv}'" for lv in sorted(levels)]
            if len(cells) == 5:
                assert cells[4] == str(p["artifacts"][metal])
        arts = [f"{n} {m}" for m, n in p["artifacts"].items() if n]
        art_column = rows["raw"][-1] == "art"  # else the artifacts are listed on a line of their own
        assert art_column or ("Artifacts: " + (", ".join(arts) or "none")) in words
        for card in p["equipment"]:
            assert CONTENT.equipment[card].name in words
        assert ("passed" in words) == (p["passed"] and p["seat"] != scene.turn.seat)


# --- market ----------------------------------------------------------------------


@pytest.mark.parametrize("size, slot", SIZES)
async def test_market_shows_cards_tiles_and_deck_counts(size, slot):
    scene = scene_at(4, 9, 90)
    words = flat(await shown(MarketPanel(), scene, size, slot))
    assert len(scene.view["equipment_display"]) == BOARD.equipment_display
    for card_id in scene.view["equipment_display"]:
        card = CONTENT.equipment[card_id]
        assert re.search(re.escape(card.name) + rf" \${card.cost} · {card.vp} VP", words)
        if card.effect:
            assert card.text in words
    assert len(scene.view["shipment_display"]) == BOARD.shipment_display
    for tile_id in scene.view["shipment_display"]:
        tile = CONTENT.shipments[tile_id]
        needs = [f"{n} {m}" for m, n in tile.resources.items()]
        needs += [f"{n} {m} artifact" for m, n in tile.artifacts.items()]
        assert re.search(re.escape("+".join(needs)) + rf" {tile.vp} VP · \${tile.money}", words.replace(" + ", "+"))
    assert f"equipment {scene.view['equipment_deck']}" in words
    assert f"shipments {scene.view['shipment_deck']}" in words


# --- log -------------------------------------------------------------------------


@pytest.mark.parametrize("size, slot", SIZES)
async def test_log_keeps_the_newest_line_in_view_and_filters_by_player(size, slot):
    scene = scene_at(3, 1, 200)
    panel = LogPanel()
    host = Host(panel, slot)
    async with host.run_test(size=size) as pilot:
        panel.show(scene)
        await pilot.pause()
        await pilot.pause()
        text = flat(text_of(panel))
        last = scene.log[-1]
        assert last.text.split()[-1] in text  # the newest line is on screen
        assert "Log · all players" in text

        panel.set_filter(1)
        await pilot.pause()
        await pilot.pause()
        text = text_of(panel)
        tag = scene.tag(1).plain
        assert f"{tag} only" in text.splitlines()[0]
        body = [line.strip("│ ") for line in text.splitlines()[1:-1]]
        assert any(line.startswith(tag) for line in body)
        assert not any(scene.tag(s).plain in text for s in (0, 2))
        assert len(panel.lines) >= sum(1 for line in scene.log if line.seat == 1)
        assert all(panel.line_text(line).plain.startswith(tag) for line in scene.log if line.seat == 1)

        # the f key cycles All → Ana → Ben → Cleo → All
        panel.set_filter(None)
        panel.focus()
        seen = []
        for _ in range(4):
            await pilot.press("f")
            await pilot.pause()
            seen.append(panel.filter_seat)
        assert seen == [0, 1, 2, None]

        # new lines are appended to what is already there
        later = scene_at(3, 1, 230)
        panel.show(later)
        await pilot.pause()
        await pilot.pause()
        assert later.log[-1].text.split()[-1] in flat(text_of(panel))


# --- every panel, every moment -----------------------------------------------------


class Board(App):
    def __init__(self, panels):
        super().__init__()
        self.panels = panels

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield from self.panels


def all_panels(players: int) -> list:
    return (
        [IslandPanel(i.number) for i in BOARD.islands]
        + [MiningSitePanel(i) for i in BOARD.mining_islands]
        + [EnrichmentCenterPanel(), ScoreTrackPanel(), RoundTrackPanel(), MarketPanel(), LogPanel()]
        + [PlayerBoard(s) for s in range(players)]
    )


@pytest.mark.slow
@pytest.mark.parametrize("players, seed", [(2, 21), (3, 22), (4, 23)])
async def test_every_panel_draws_every_stage_of_a_game(players, seed):
    """From setup to the final scores, for the seat to play and for nobody, no panel fails or stays empty."""
    panels = all_panels(players)
    async with Board(panels).run_test(size=(80, 24)) as pilot:
        for n, engine in enumerate(play(players, seed)):
            if n % 193 and engine.state.phase != "over" and n > 3:
                continue
            for seat in (engine.pending.seat, None):
                scene = scene_of(engine, seat)
                for panel in panels:
                    panel.show(scene)
                await pilot.pause()
                for panel in panels:
                    if not isinstance(panel, LogPanel):
                        assert len(text_of(panel).splitlines()) > 3, type(panel).__name__
        assert engine.state.phase == "over"


async def test_the_log_of_one_seat_never_stays_on_screen_for_another():
    """Ana's log names the objectives she kept; once Ben's scene is shown, none of that is left."""
    engine = None
    for engine in play(3, 11):
        if engine.state.phase == "actions":
            break
    secret = [CONTENT.objectives[o].name for o in engine.state.players[0].objectives]
    ana, ben = scene_of(engine, 0), scene_of(engine, 1)
    assert any(name in line.text for line in ana.log for name in secret)
    panel = LogPanel()
    async with Host(panel, None).run_test(size=(80, 24)) as pilot:
        panel.show(ana)
        await pilot.pause()
        panel.show(ben)
        await pilot.pause()
        on_screen = "\n".join(strip.text for strip in panel.lines)
        assert on_screen and not any(name in on_screen for name in secret)


# --- prompt -----------------------------------------------------------------------


async def test_the_prompt_shows_option_labels_word_for_word():
    """An option's label is shown as the engine words it: brackets in it are not read as markup."""
    scene = scene_at(2, 3, 10)
    labels = ("Pay [b]2[/b] to Ana [R]", "Keep [dim]everything[/]")
    odd = offering(scene, [(f"odd:{n}", label) for n, label in enumerate(labels)])
    panel = PromptPanel()
    async with Host(panel, None).run_test(size=(80, 24)) as pilot:
        panel.show(odd)
        await pilot.pause()
        text = text_of(panel.query_one(Options))
    assert f"1. {labels[0]}" in text and f"2. {labels[1]}" in text, text


class PromptHost(App):
    """A prompt 9 rows high and 40 wide (its options get 6 of them), keeping the options picked."""

    CSS = "PromptPanel { width: 40; height: 9; } PromptPanel > Options { height: 1fr; }"

    def __init__(self) -> None:
        super().__init__()
        self.picked: list[str] = []

    def compose(self) -> ComposeResult:
        yield PromptPanel()

    def on_prompt_panel_chosen(self, message: PromptPanel.Chosen) -> None:
        self.picked.append(message.option_id)


def many_options(count: int, label=lambda n: f"Option number {n}"):
    """A scene whose decision offers `count` options (labels from `label`)."""
    return offering(scene_at(2, 3, 10), [(f"opt:{n}", label(n)) for n in range(count)])


def offering(scene: Scene, options: list[tuple[str, str]]) -> Scene:
    """`scene` with its decision offering these options instead, (id, label) each."""
    choices = tuple(Choice(i, label, Refers(), {}) for i, label in options)
    prompt = dataclasses.replace(scene.prompt, options=choices, refused=())
    return Scene(dataclasses.replace(scene.message, prompt=prompt, undo=None), scene.content)  # (no undo line)


@asynccontextmanager
async def prompt_showing(scene):
    """A `PromptHost` showing `scene`, its options focused: (app, pilot, prompt panel, options)."""
    app = PromptHost()
    async with app.run_test(size=(60, 20)) as pilot:
        panel = app.query_one(PromptPanel)
        panel.show(scene)
        options = panel.query_one(Options)
        options.focus()
        await pilot.pause()
        yield app, pilot, panel, options


async def test_the_arrows_move_the_highlight_and_keep_it_in_sight_and_the_border_says_what_is_hidden():
    async with prompt_showing(many_options(12)) as (app, pilot, panel, options):
        assert options.highlighted is None and "▼ 6 more" in str(panel.border_subtitle)  # none until a key
        for key, highlighted in (
            ("down", 0),
            ("down", 1),
            ("end", 11),
            ("up", 10),
            ("home", 0),
            ("pagedown", 6),
            ("pageup", 0),
        ):
            await pilot.press(key)
            await pilot.pause()
            assert options.highlighted == highlighted, key
            assert f"Option number {highlighted}" in text_of(options), key
        await pilot.press("end")
        await pilot.pause()
        assert "▲ 6 more" in str(panel.border_subtitle) and "▼" not in str(panel.border_subtitle)
        assert "Option number 0" not in text_of(options)


async def test_enter_picks_the_highlighted_option_and_a_click_the_one_under_the_mouse():
    async with prompt_showing(many_options(4)) as (app, pilot, panel, options):
        await pilot.press("down", "down", "enter")
        await pilot.pause()
        assert app.picked == ["opt:1"]
        await pilot.click(Options, offset=(3, 2))  # the third line: the third option
        await pilot.pause()
        assert app.picked == ["opt:1", "opt:2"] and options.highlighted == 2


async def test_an_enter_on_a_list_just_shown_picks_nothing_and_shows_what_the_next_enter_would():
    """An Enter meant for the screen before (a curtain, the last question) never picks on a new list."""
    async with prompt_showing(many_options(4)) as (app, pilot, panel, options):
        assert options.highlighted is None
        await pilot.press("enter")
        await pilot.pause()
        assert app.picked == [] and options.highlighted == 0
        await pilot.press("enter")
        await pilot.pause()
        assert app.picked == ["opt:0"]
        panel.show(many_options(4, lambda n: f"Another option {n}"))  # the next question
        await pilot.pause()
        assert options.highlighted is None
        await pilot.press("enter")
        await pilot.pause()
        assert app.picked == ["opt:0"]
        panel.show(many_options(4, lambda n: f"Another option {n}"))  # the same question drawn again
        await pilot.pause()
        assert options.highlighted == 0  # keeps its highlight


async def test_a_long_option_takes_more_lines_and_the_highlight_covers_all_of_them():
    long = "Send 2 miners to the copper gallery at island 1, column 2"
    async with prompt_showing(many_options(3, lambda n: long if n == 1 else f"Option {n}")) as (_, pilot, _, options):
        lines = text_of(options).splitlines()
        assert lines[0].startswith("1. Option 0") and lines[1].startswith("2. Send 2 miners")
        assert lines[2].strip() and lines[3].startswith("3. Option 2"), lines
        await pilot.press("down", "down")
        await pilot.pause()
        background = [next(iter(strip)).style.bgcolor for strip in options.render_lines(Region(0, 0, *options.size))]
        assert background[1] == background[2] != background[0] == background[3]


async def test_an_option_that_fits_on_one_line_is_laid_out_as_rich_lays_it_out():
    """Most options fit on one line, and are laid out without Rich's wrapping: to the same segments Rich gives."""
    async with prompt_showing(many_options(1)) as (app, pilot, panel, options):
        room = options.size.width - len("1. ")
        labels = ["Option 0", "Mine 2 gold — not now: the mine is full", "金 gold 金", "a\tb", ""]
        labels += ["x" * (room - 1), "x" * room, "x" * (room + 1), "金" * (room // 2), "金" * (room // 2 + 1)]
        panel.show(many_options(len(labels), lambda n: labels[n]))
        await pilot.pause()
        console, style = app.console, options.visual_style.rich_style
        for index in range(len(labels)):
            option = options.get_option_at_index(index)
            hang = len(option.key)
            words = Text(option.prompt[hang:], no_wrap=False)
            laid = console.render_lines(words, console.options.update(width=room), style=style, pad=True)
            rich = [[Segment(option.key if n == 0 else " " * hang, style), *line] for n, line in enumerate(laid)]
            assert [list(strip) for strip in options._lay_out(option, style)] == rich, option


async def test_a_new_list_of_options_repaints_only_the_lines_that_read_differently():
    async with prompt_showing(many_options(5)) as (_, pilot, panel, options):
        drawn: list[int] = []
        original = Options.render_line

        def counted(self, y):
            drawn.append(y)
            return original(self, y)

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(Options, "render_line", counted)
            panel.show(many_options(5, lambda n: "Option number 9" if n == 3 else f"Option number {n}"))
            await pilot.pause()
            assert drawn == [3]
            options.highlighted = 0
            await pilot.pause()
            drawn.clear()
            options.highlighted = 2  # the highlight leaves the first option for the third
            await pilot.pause()
            assert sorted(drawn) == [0, 2]
