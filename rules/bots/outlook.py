"""The bot's valuation: what one seat knows and wants, priced in victory points (VP).

`Outlook` reads the game as its seat knows it (`rules.known_state` of the
seat message's view: whatever the seat cannot know is blank) and prices
each thing the seat could do in VP:

- every good has a price: a dollar (more when wages are due and money is
  short), a raw cube, an enriched cube (more when it pays for a deal in hand);
- an island action or an equipment use is worth the best thing it could do
  now, found together with a *plan*: the options of the steps that follow
  (which galleries get miners, which cubes are enriched...), described by
  what they are about (rules/bots/plans.py);
- things that pay off later are worth less as the end nears: the last round
  or, sooner, the round in which the leader's pace reaches the VP goal.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping
from typing import Any

from rules import METALS, MONEY, Gallery, GameState, closing_spent, equipment_activity, island_activity, measure, vp_at
from rules.cards import Equipment, Objective, Shipment
from rules.seat import Choice, Space

from .plans import BUY, DONE, DRAW, ENRICH, NOTHING, Plan, Want, about, best, word

USE_WORTH = {
    "gain_money": 0.8,
    "sell_metal": 0.25,
    "draw_deal": 0.4,
    "draw_or_close_deal": 0.6,
    "close_deal": 0.5,
    "collect_from_gallery": 0.4,
    "enrich": 0.35,
    "buy_enriched": 0.3,
    "upgrade_own_enriched": 0.25,
    "upgrade_centre": 0.1,
    "discard_deal_for_money": 0.2,
    "trade": 0.15,
    "demolish_gallery": 0.0,
}
"""The VP one use of an equipment ability typically brings, to price a card before
buying it. A crusher is priced from its own VP instead, less the enriched cube it
takes, and used about every other round when an enriched cube is at hand."""


Data = dict[str, Any]
"""An activity's fixed parameters (`island_activity`, `equipment_activity`): each activity has its own
keys and kinds of value, so Any."""


def rounds_left(s: GameState) -> int:
    """Rounds still to come after this one: to the last round or, sooner, to the
    round in which the leader reaches the VP goal at their pace so far."""
    if s.end_triggered:
        return 0
    lead = max(p.vp for p in s.players)
    pace = max(1.5, lead / max(1, s.round))
    to_goal = math.ceil((s.board.vp_goal - lead) / pace) - 1
    return max(0, min(s.board.rounds - s.round, to_goal))


def wages_soon(s: GameState, seat: int) -> int:
    """Dollars owed at the end of this round or the next, to keep in hand."""
    board = s.board
    if not any(0 <= r - s.round <= 1 for r in board.wage_rounds):
        return 0
    return -(-s.players[seat].workers // board.workers_per_dollar)


def _counts_for(params: Mapping[str, Any], match: Mapping[str, Any]) -> bool:
    """Whether an objective with these parameters counts a change described by `match` (the
    parameters as its card gives them, from TOML: Any, like the parts of a change)."""
    if params.get("metal") not in (None, match.get("metal")):
        return False
    if params.get("kind", "all") not in ("all", match.get("kind")):
        return False
    return params.get("min_size", 0) <= match.get("size", 0)  # type: ignore[no-any-return]  # (two counts)


def _next_threshold(objective: Objective, now: int, rival_best: int) -> int | None:
    if objective.scoring == "fixed":
        return objective.at_least if objective.at_least > now else None
    if objective.scoring == "tiers":
        return min((least for least, _ in objective.tiers if least > now), default=None)
    if objective.scoring == "most":
        return max(rival_best, 1) if rival_best > now or now == 0 else None
    return None


class Outlook:
    """What one seat knows and wants at this moment, priced in VP."""

    def __init__(self, s: GameState, seat: int, spaces: tuple[Space, ...]) -> None:
        """`s`: the game as the seat knows it (`known_state`); `spaces`: the seat message's action spaces."""
        self.s, self.seat, self.me = s, seat, s.players[seat]
        self.spaces = {(space.island, space.action): space for space in spaces}
        self.content, self.board = s.content, s.board
        self.left = rounds_left(s)
        self.reserve = wages_soon(s, seat)
        self.objectives = [self.content.objectives[o] for o in self.me.objectives]
        self.needs: dict[str, list[tuple[int, float]]] = {m: [] for m in METALS}
        self.serving: dict[tuple[str, int], float] = {}
        self._read_deals()
        self._memo: dict[tuple[str, tuple[tuple[str, str], ...]], Plan] = {}
        # Each price below is asked for again and again while the options are valued (the cube of
        # a metal by every shipment, every trade, every gallery...), and none changes while this
        # outlook lives: each is worked out once. A measure no kept objective takes is worth nothing.
        self._measured = frozenset(obj.measure for obj in self.objectives)
        self._goals: dict[tuple[object, ...], float] = {}
        self._cubes: dict[str, float] = {}
        self._dollars: dict[int, float] = {}
        self._actions: dict[tuple[int, str], Plan] = {}
        self._open: dict[tuple[int, int], list[float]] = {}
        self._unknown_tile: tuple[list[float], float] | None = None

    def _read_deals(self) -> None:
        """Which enriched cubes the deals in hand still need, and which on the board pay one."""
        for deal_id in self.me.deals:
            deal = self.content.deals[deal_id]
            share = deal.vp / len(deal.requires)
            for metal, level in deal.requires.items():
                fits = [held for held in self.me.enriched[metal] if held >= level]
                if fits:
                    key = (metal, min(fits))
                    self.serving[key] = max(share, self.serving.get(key, 0.0))
                else:
                    self.needs[metal].append((level, share))

    # --- the price of things ---------------------------------------------------------

    def goal(self, name: str, delta: int = 1, **match: Any) -> float:
        """VP the kept objectives gain (or lose) if the measure `name` changed by `delta`.

        A step toward a threshold not yet reached earns a share of its VP; a loss
        counts in full only near the end, since most measures are taken then."""
        if name not in self._measured:
            return 0.0
        key = (name, delta, *sorted(match.items()))
        gain = self._goals.get(key)
        if gain is None:
            gain = self._goals[key] = self._goal(name, delta, match)
        return gain

    def _goal(self, name: str, delta: int, match: dict[str, object]) -> float:
        gain = 0.0
        for obj in self.objectives:
            if obj.measure != name or not _counts_for(obj.params, match):
                continue
            now = measure(self.s, self.seat, obj)
            rivals = max((measure(self.s, p.seat, obj) for p in self.s.players if p is not self.me), default=0)
            direct = vp_at(obj, now + delta, rivals) - vp_at(obj, now, rivals)
            if delta < 0:
                gain += direct * (1.0 if self.left <= 1 else 0.3)
            elif direct:
                gain += direct
            else:
                target = _next_threshold(obj, now, rivals)
                if target is not None and target - now <= self.left + 2:
                    gain += 0.7 * delta * (vp_at(obj, target, rivals) - vp_at(obj, now, rivals)) / (target - now)
        return gain

    def money(self, delta: int) -> float:
        """Gaining (or, negative, spending) dollars. Dollars owed as wages soon are
        worth a VP each, since each one missing costs a VP."""
        known = self._dollars.get(delta)
        if known is not None:
            return known
        dollar = 0.45 if self.left >= 4 else 0.3 if self.left >= 1 else 0.1

        def worth(m: int) -> float:
            kept = min(max(m, 0), self.reserve)
            return kept + dollar * (m - kept)

        end_goal = self.goal("money", delta) if self.left <= 2 else 0.0
        value = self._dollars[delta] = worth(self.me.money + delta) - worth(self.me.money) + end_goal
        return value

    def cube(self, metal: str) -> float:
        """A raw cube: what a shipment, an artifact or the Enrichment Center will make of it."""
        known = self._cubes.get(metal)
        if known is not None:
            return known
        v = 0.5 * min(1.0, (self.left + 1) / 4)
        if self.needs[metal] and self.left >= 2:
            v += 0.15
        value = self._cubes[metal] = v + self.goal("raw_resources", 1, metal=metal)
        return value

    def need_share(self, metal: str, level: int) -> float:
        """The share of a deal in hand that an enriched cube of this metal and level would pay."""
        return max((share for need, share in self.needs[metal] if level >= need), default=0.0)

    def spare(self, level: int) -> float:
        """An enriched cube no deal in hand asks for: a later deal or a crusher may use it."""
        return 0.1 + (0.1 * level if self.left >= 2 else 0.0)

    def enriched_gain(self, metal: str, level: int) -> float:
        """Bringing an enriched cube onto the board (apart from the VP its purchase scores)."""
        v = 0.8 * self.need_share(metal, level) or self.spare(level)
        new_metal = self.goal("metals_enriched") if not self.me.enriched[metal] else 0.0
        return v + new_metal + self.goal("enriched_on_board", 1, metal=metal)

    def enriched_loss(self, metal: str, level: int) -> float:
        """Giving up an enriched cube on the board."""
        v = 0.8 * self.serving.get((metal, level), 0.0) or self.spare(level)
        return v - self.goal("enriched_on_board", -1, metal=metal)

    def artifact_kept(self, metal: str) -> float:
        return self.board.artifact_vp + self.goal("artifacts", 1, metal=metal)

    # --- island actions and equipment effects --------------------------------------------

    def activity(self, kind: str, data: Data) -> Plan:
        """The best use of an activity (an island action or an equipment effect) now."""
        key = (kind, tuple(sorted((k, str(v)) for k, v in data.items())))
        if key not in self._memo:
            valuer = getattr(self, "_" + kind, None)
            self._memo[key] = valuer(data) if valuer else NOTHING
        return self._memo[key]

    def _operate_mining_site(self, data: Data) -> Plan:
        """Send free miners where the next cube is likeliest and worth most."""
        free = self.me.free_miners - self.miners_for_equipment()
        galleries = [
            (column, level, g)
            for column, pair in enumerate(self.s.sites[data["island"]].columns)
            for level, g in ((1, pair[0]), (2, pair[1]))
            if g is not None
        ]
        prospects = [self.prospect(g) for _, _, g in galleries]
        sent = [0] * len(galleries)
        while free > 0:
            gains = []
            for i, (_, level, _) in enumerate(galleries):
                per = level  # miners per cube: 1 on level 1, a pair on level 2
                chance, worth = prospects[i]
                k = sent[i] // per + 1
                if per <= free and k < len(chance):
                    gains.append((chance[k] * worth / per, i))
            gain, i = max(gains, default=(0.0, -1))
            if gain < 0.2:
                break
            sent[i] += galleries[i][1]
            free -= galleries[i][1]
        value = sum(sum(prospects[i][0][1 : n // galleries[i][1] + 1]) * prospects[i][1] for i, n in enumerate(sent))
        plan = tuple(about(column=c, level=lv, miners=n) for (c, lv, _), n in zip(galleries, sent) if n)
        return (value, plan + (word(DONE),)) if plan else NOTHING

    def prospect(self, g: Gallery) -> tuple[list[float], float]:
        """For one gallery: the chance that it holds a k-th cube (k = 0..4), and a cube's worth."""
        most = self.board.gallery_max_cubes
        if not g.face_up and g.placed_by != self.seat:  # someone else's face-down tile: any of the mix
            if self._unknown_tile is None:
                tiles = list(self.content.galleries.values())
                total = sum(t.count for t in tiles)
                chance = [sum(t.count for t in tiles if t.cubes >= k) / total for k in range(most + 1)]
                self._unknown_tile = chance, statistics.fmean(self.cube(m) for m in METALS)
            return self._unknown_tile
        tile = self.content.gallery(g.tile)
        cubes = g.cubes if g.face_up else min(tile.cubes, self.s.supply[tile.metal]) if tile.metal else 0
        return [1.0 if k <= cubes else 0.0 for k in range(most + 1)], self.cube(tile.metal) if tile.metal else 0.0

    def _enrichment_transaction(self, data: Data) -> Plan:
        plans = []
        if "enrich" in data["modes"] and data["enrich"]:
            plans.append(self.enrich(data["enrich"], prefix=(word(ENRICH),) if len(data["modes"]) > 1 else ()))
        if "buy" in data["modes"] and data["buy"]:
            plans.append(self.buy_enriched(data["buy"], prefix=(word(BUY),) if len(data["modes"]) > 1 else ()))
        return best(plans)

    def enrich(self, most: int, prefix: tuple[Want, ...] = ()) -> Plan:
        """Raw cubes to the 0' line: each comes back a VP when bought, and perhaps pays a deal."""
        if self.left < 1:
            return NOTHING
        picks: list[str]
        board, picks, value = self.board, [], 0.0
        for _ in range(most):
            options = []
            for m in METALS:
                n = picks.count(m)
                if (
                    self.me.raw[m] > n
                    and n < board.enrich_same_metal_max
                    and len(self.s.centre[m][0]) + n < board.zero_line_capacity
                ):
                    deal = max((share for level, share in self.needs[m] if level <= self.left), default=0.0)
                    options.append((0.9 * board.owner_vp + 0.6 * deal * (n == 0) + 0.1 - self.cube(m), m))
            gain, metal = max(options, default=(0.0, None))
            if gain <= 0.05:
                break
            picks.append(metal)  # type: ignore[arg-type]  # (None only with no options, whose gain 0.0 stopped)
            value += gain
        if not picks:
            return NOTHING
        return value, prefix + tuple(about(metal=m) for m in picks) + (word(DONE),)

    def buy_enriched(self, most: int, prefix: tuple[Want, ...] = ()) -> Plan:
        """Own cubes back when they are ripe (a VP each), others' only to pay a deal."""
        offers = []
        for m in METALS:
            for level in range(1, 5):
                for owner in sorted(set(self.s.centre[m][level])):
                    offers.append((self.cube_offer(m, level, owner), m, level, owner))
        held = {(m, lv) for m, levels in self.me.enriched.items() for lv in levels}
        picks: list[Want]
        picks, value, spent = [], 0.0, 0
        for v, m, level, owner in sorted(offers, reverse=True):
            price = 0 if owner == self.seat else level
            if len(picks) < most and v > 0 and (m, level) not in held and spent + price <= self.me.money:
                picks.append(about(metal=m, level=level, seat=owner))
                held.add((m, level))
                value, spent = value + v, spent + price
        return (value, prefix + tuple(picks) + (word(DONE),)) if picks else NOTHING

    def cube_offer(self, metal: str, level: int, owner: int) -> float:
        if owner == self.seat:
            ripe = level >= 3 or self.left == 0 or self.need_share(metal, level) > 0
            return self.board.owner_vp + self.enriched_gain(metal, level) - (0 if ripe else 0.9)
        if not self.need_share(metal, level):
            return 0.0
        rivals = self.s.seats - 1  # the owner's VP helps one rival among them
        return 0.8 * self.need_share(metal, level) + self.money(-level) - 0.3 - 0.5 / rivals

    def _deal(self, data: Data) -> Plan:
        plans = []
        if data.get("close") and not closing_spent(self.me, data):
            plans += [self.close_deal(d, data.get("bonus", 0)) for d in self.me.deals]
        if data.get("draw") and self.s.deal_deck:
            plans.append(self.draw_deal())
        return best(plans)

    def close_deal(self, deal_id: str, bonus: int) -> Plan:
        deal = self.content.deals[deal_id]
        if any(not any(h >= lv for h in self.me.enriched[m]) for m, lv in deal.requires.items()):
            return NOTHING
        v = deal.vp + bonus + self.goal("deals_closed")
        v += sum(self.goal("enriched_on_board", -1, metal=m) - 0.1 for m in deal.requires)
        return v, (about(cards=(deal_id,)),)

    def draw_deal(self) -> Plan:
        """A deal is worth drawing while there is time to enrich for it and few are open."""
        hoping = sum(1 for metal in METALS for _ in self.needs[metal])
        v = 1.3 if self.left >= 5 and hoping < 3 else 0.5 if self.left >= 3 and hoping < 4 else 0.0
        return (v + 0.3 * self.goal("deals_closed"), (word(DRAW),)) if v else NOTHING

    def _draw_deal(self, data: Data) -> Plan:
        return (self.draw_deal()[0], ()) if self.s.deal_deck else NOTHING

    def _make_shipment(self, data: Data) -> Plan:
        return best(
            (self.shipment_worth(self.content.shipments[t]), (about(cards=(t,)),)) for t in self.s.shipment_display
        )

    def shipment_worth(self, tile: Shipment, extra: str | None = None) -> float:
        """A shipment's VP and money less the goods it takes (0 if they are not in hand)."""
        raw = dict(self.me.raw)
        if extra:
            raw[extra] += 1
        if any(raw[m] < n for m, n in tile.resources.items()) or any(
            self.me.artifacts[m] < n for m, n in tile.artifacts.items()
        ):
            return 0.0
        v = tile.vp + self.money(tile.money) + self.goal("shipments") + self.goal("shipments_of_size", size=tile.size)
        v -= sum(n * self.cube(m) for m, n in tile.resources.items())
        v -= sum(n * self.artifact_kept(m) for m, n in tile.artifacts.items())
        return v + (self.goal("artifact_shipments") if tile.artifacts else 0.0)

    def _buy_artifact(self, data: Data) -> Plan:
        price = self.board.artifact_price
        return best(
            (self.artifact_kept(m) + 0.2 - price * self.cube(m), (about(metal=m),))
            for m in self.s.artifacts.get(data["island"], ())
            if self.me.raw[m] >= price
        )

    def _buy_equipment(self, data: Data) -> Plan:
        return best(
            (self.equipment_worth(self.content.equipment[e]), (about(cards=(e,)),))
            for e in self.s.equipment_display
            if self.content.equipment[e].cost <= self.me.money
        )

    def equipment_worth(self, card: Equipment) -> float:
        """A card's VP, its uses over the rounds left, and objectives; less its price."""
        use = (card.params["vp"] - 0.4) * 0.6 if card.effect == "crush" else USE_WORTH.get(card.effect, 0.0)  # type: ignore[operator, arg-type]  # (a crusher's vp is an int; no effect, no worth)
        uses = min(self.left, 10) * (0.7 if self.me.miners >= 3 else 0.5)
        return card.vp + use * uses + self.money(-card.cost) + self.goal("equipment")

    def _recruit_merchant(self, data: Data) -> Plan:
        return self.recruit(
            self.me.merchants,
            self.board.merchants_max,
            self.board.merchant_cost,
            {2: 0.7, 3: 0.5, 4: 0.35, 5: 0.2},
            "merchants",
        )

    def _recruit_miner(self, data: Data) -> Plan:
        return self.recruit(
            self.me.miners, self.board.miners_max, self.board.miner_cost, {1: 0.5, 2: 0.4, 3: 0.3, 4: 0.15}, "miners"
        )

    def recruit(self, have: int, most: int, cost: int, per_round: dict[int, float], kind: str) -> Plan:
        """A worker pays for itself by working the rounds left, less its price and its wages."""
        if have >= most or self.me.money < cost:
            return NOTHING
        wages_left = sum(1 for r in self.board.wage_rounds if r >= self.s.round)
        v = per_round.get(have, 0.05) * self.left + self.money(-cost) - 0.25 * wages_left
        return v + self.goal("workers", kind=kind), ()

    def _draw_place_galleries(self, data: Data) -> Plan:
        return self.money(self.board.gallery_reward[-1]) + 0.1, ()

    def _trade(self, data: Data) -> Plan:
        """Trade for the one cube a shipment or an artifact lacks, or for wages about to be missed."""
        plans = [self.trade_for(metal, worth, data["give"]) for metal, worth in self.one_short()]
        if self.reserve > self.me.money:
            plans.append(self.trade_for(MONEY, 1.0, data["give"]))
        return best(plans)

    def one_short(self) -> list[tuple[str, float]]:
        """(metal, worth) of the single raw cubes that would complete a shipment or an artifact."""
        wanted = []
        for t in self.s.shipment_display:
            tile = self.content.shipments[t]
            short = [m for m, n in tile.resources.items() if self.me.raw[m] < n]
            if not tile.artifacts and len(short) == 1 and self.me.raw[short[0]] == tile.resources[short[0]] - 1:
                wanted.append((short[0], 0.7 * self.shipment_worth(tile, short[0]) + self.cube(short[0])))
        price = self.board.artifact_price
        for m in METALS:
            if self.me.raw[m] == price - 1 and any(m in left for left in self.s.artifacts.values()):
                wanted.append((m, 0.7 * (self.artifact_kept(m) - price * self.cube(m)) + self.cube(m)))
        return wanted

    def trade_for(self, good: str, worth: float, give: int) -> Plan:
        """`good` for the `give` goods in hand worth least (dollars only beyond the wages kept);
        counted by kind, so a hand of hundreds of cubes costs no more than a hand of three."""
        lots = [(self.cube(m), m, self.me.raw[m]) for m in METALS if m != good]
        if good != MONEY:
            lots.append((-self.money(-1), MONEY, max(0, min(give, self.me.money - self.reserve))))
        lots.sort()
        if sum(n for _, _, n in lots) < give:
            return NOTHING
        given: list[str] = []
        cost = 0.0
        for w, g, n in lots:
            for _ in range(min(n, give - len(given))):
                given.append(g)
                cost += w
        return worth - cost, (about(goods=tuple(given)), about(goods=(good,)), word(DONE))

    def _crush(self, data: Data) -> Plan:
        return best(
            (data["vp"] - self.enriched_loss(m, lv), (about(metal=m, level=lv),))
            for m, levels in self.me.enriched.items()
            for lv in levels
            if lv >= data["min_level"]
        )

    def _upgrade_own_enriched(self, data: Data) -> Plan:
        if self.me.money < data["cost"]:
            return NOTHING
        return best(
            (
                0.8 * (self.need_share(m, lv + 1) - self.need_share(m, lv)) + self.money(-data["cost"]),
                (about(metal=m, level=lv),),
            )
            for m, levels in self.me.enriched.items()
            for lv in levels
            if lv < 4 and lv + 1 not in levels
        )

    def _upgrade_centre(self, data: Data) -> Plan:
        """Ripen an own cube a deal waits for, or push a rival's 4' cube out of the game."""
        plans = []
        for m in METALS:
            for lv, owners in enumerate(self.s.centre[m]):
                for owner in set(owners):
                    if owner == self.seat and lv < 4 and self.need_share(m, lv + 1) > self.need_share(m, lv):
                        plans.append((0.4, (about(metal=m, level=lv, seat=owner),)))
                    elif owner != self.seat and lv == 4:
                        plans.append((0.15, (about(metal=m, level=lv, seat=owner),)))
        return best(plans)

    def _collect_from_gallery(self, data: Data) -> Plan:
        plans = []
        for island, site in self.s.sites.items():
            for column in range(len(site.columns)):
                g = site.gallery(column, data["level"])
                if g is not None and g.face_up and g.cubes:
                    plans.append(
                        (self.cube(self.content.gallery(g.tile).metal), (about(island=island, column=column),))  # type: ignore[arg-type]  # (cubes: a metal)
                    )
        return best(plans)

    def _discard_deal(self, data: Data) -> Plan:
        """Throw away a deal there is no longer time to enrich for."""
        plans = []
        for d in self.me.deals:
            deal = self.content.deals[d]
            missing = [lv for m, lv in deal.requires.items() if not any(h >= lv for h in self.me.enriched[m])]
            if missing and self.left < max(missing) + len(missing):
                plans.append((self.money(data["money"]), (about(cards=(d,)),)))
        return best(plans)

    def _sell_metal(self, data: Data) -> Plan:
        metal = data["metal"]
        return (self.money(data["money"]) - self.cube(metal), ()) if self.me.raw[metal] else NOTHING

    def _gain_money(self, data: Data) -> Plan:
        return self.money(data["amount"]), ()

    # --- where and what ---------------------------------------------------------------

    def island_action(self, island: int, action: str) -> Plan:
        plan = self._actions.get((island, action))
        if plan is None:
            kind, data = island_activity(action, self.board, island)
            plan = self._actions[island, action] = self.activity(kind, data)
        return plan

    def equipment_use(self, card_id: str) -> Plan:
        """Using a card, less the miner it takes from the mines."""
        card = self.content.equipment[card_id]
        kind, data = equipment_activity(card.effect, card.params)  # type: ignore[arg-type]  # (a card used has an ability)
        value, plan = self.activity(kind, data)
        return value - 0.2, plan

    def miners_for_equipment(self) -> int:
        """Miners kept from the mines for cards worth more than mining with them."""
        return sum(
            1
            for e in self.me.equipment
            if self.content.equipment[e].effect and e not in self.me.equipment_used and self.equipment_use(e)[0] > 0.4
        )

    def merchants_for(self, island: int, action: str) -> int:
        """The merchants the space costs this seat now (none for a space taken with miners)."""
        space = self.spaces[island, action]
        return 0 if space.by_miners else space.merchants

    def island_actions(self, island: int, merchants: int) -> list[float]:
        """The worth of every action still open to this seat on an island, best first (a list
        kept for the next to ask: not to be changed)."""
        known = self._open.get((island, merchants))
        if known is not None:
            return known
        values = []
        for action in self.board.island(island).actions:
            need = self.merchants_for(island, action)
            if action != "depart_island" and not self.spaces[island, action].taken and need <= merchants:
                values.append(self.island_action(island, action)[0] - 0.3 * max(0, need - 1))
        values.sort(reverse=True)
        self._open[island, merchants] = values
        return values

    def island_worth(self, island: int) -> float:
        """An island for the round: its two best actions, a little of the rest and of sailing on."""
        values = self.island_actions(island, self.me.merchants) + [0.0, 0.0, 0.0]
        elsewhere = max(
            (self.island_actions(other.number, self.me.merchants - 2) or [0.0])[0]
            for other in self.board.islands
            if other.number != island
        )
        return values[0] + values[1] + 0.3 * values[2] + 0.3 * max(0.0, elsewhere)

    def departure(self) -> Plan:
        """Sailing is worth what the best action waiting on another island is worth, a little less."""
        merchants = self.me.free_merchants - self.merchants_for(self.me.island, "depart_island")  # type: ignore[arg-type]  # (docked)
        return best(
            (0.85 * (self.island_actions(isl.number, merchants) or [0.0])[0] - 0.2, (about(island=isl.number),))
            for isl in self.board.islands
            if isl.number != self.me.island
        )

    def placement(self, choice: Choice) -> float:
        """A drawn gallery: face up for the money, where it pushes the least off the board."""
        where = choice.refers
        low, high = self.s.sites[where.island].columns[where.column]  # type: ignore[index]  # (a placement names both)
        v = 1.0 if where.face_up else 0.0
        if low is not None:
            v -= 0.1  # pushed to level 2, where a cube takes two miners
        if low is not None and high is not None:
            chance, worth = self.prospect(high)
            v -= sum(chance[1:]) * worth
        return v
