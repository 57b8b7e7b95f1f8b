"""The Pax Pamir ``heuristic``: one parametrised bot for every seat (issue 66), each option of
a turn valued by weighted features of the position (``weights.toml``), the sub-choices by
fixed priorities named in each method. No lookahead: it is the fast tier the search bots
build on.

Parameters: any weight of ``weights.toml`` by name (``heuristic:tax=1.5``), or ``weights``, a
TOML file whose keys replace the shipped ones.
"""

from __future__ import annotations

import hashlib
import random
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, create_model

from simulate.errors import DataError
from simulate.pax_pamir import actions as A
from simulate.pax_pamir import dominance, ruling
from simulate.pax_pamir import options as O
from simulate.pax_pamir.cards import NONE
from simulate.pax_pamir.state import EMPTY
from strategies.params import no_such_parameter

WEIGHTS = Path(__file__).with_name("weights.toml")


def _model() -> type[BaseModel]:
    """The weights file's model: every key of the shipped file, a number (``pass`` is
    ``pass_``); an unknown key is refused."""
    keys = tomllib.loads(WEIGHTS.read_text())
    fields: dict[str, Any] = {("pass_" if k == "pass" else k): (float, ...) for k in keys}
    return create_model("Weights", __config__=ConfigDict(extra="forbid"), **fields)


Weights = _model()


def load_weights(path: Path | None = None, **overrides: float) -> Any:
    """The shipped weights, a file's keys over them, then ``overrides``; a bad key or value is
    a one-line error naming it."""
    raw = tomllib.loads(WEIGHTS.read_text())
    if path is not None:
        try:
            raw.update(tomllib.loads(Path(path).read_text()))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise DataError(f"{path}: cannot read the heuristic's weights ({exc})") from None
    raw.update(overrides)
    raw["pass_"] = raw.pop("pass", 0.0)
    try:
        return Weights.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        key = ".".join(str(x) for x in err["loc"]).replace("pass_", "pass")
        raise DataError(f"{path or WEIGHTS}: {key}: {err['msg']}") from None


class Heuristic:
    """Values each main option by the weights and takes the best (the first on a tie)."""

    name = "heuristic"

    def __init__(self, **params: Any) -> None:
        path = params.pop("weights", None)
        known = set(Weights.model_fields) - {"pass_"} | {"pass"}
        for key in params:
            if key not in known:
                raise ValueError(
                    no_such_parameter("heuristic", key, {"its weights": sorted(known)})
                )
        self.w = load_weights(path, **{k: float(v) for k, v in params.items()})
        # what a manifest records of this bot: its weights files' digests and the overrides
        self.params: dict[str, Any] = {"weights_sha256": _digest(WEIGHTS), **params}
        if path is not None:
            self.params["weights_file_sha256"] = _digest(Path(path))
        self.rng = random.Random(0)

    def new_game(self, faction: str, rng: random.Random, rules: Any) -> None:
        self.rng = rng
        self.me = rules.seats.index(faction)
        self.data = rules.data

    def choose(self, observation: Any, decision: Any) -> Any:
        kind = decision.kind
        method = getattr(self, f"_{kind}", None)
        if method is None:
            method = (
                self._ask if kind.endswith("_ask") else self._pay if kind.endswith("_pay") else None
            )
        if method is None:
            return _first(decision.options)
        return method(observation.state, decision)

    # -- the main choice -----------------------------------------------------------------
    def _action(self, st: Any, d: Any) -> int:
        self.position(st)
        best, value = O.PASS, self.w.pass_
        for option in d.options:
            if option == O.PASS:
                continue
            v = self.value(st, option)
            if v > value:
                best, value = option, v
        return best

    def position(self, st: Any) -> None:
        """What every option of one decision shares: whether the bot's coalition leads in
        blocks, and whether a check now would be unsuccessful (RB p15: then cylinders in play
        score)."""
        blocks = dominance.blocks_in_play(st)
        mine = blocks[st.loyalty[self.me]]
        self.leading = mine > 0 and mine >= max(blocks)
        self.unsuccessful = dominance.dominant_coalition(self.data, st) is None

    def value(self, st: Any, option: int) -> float:
        """What ``option`` is worth to the bot now (the weights' units; ``position`` first)."""
        data, w, me = self.data, self.w, self.me
        verb, arg = O.verb_of(option), O.arg_of(option)
        if verb == O.BUY:
            card = st.market[arg]
            column = arg % st.columns
            price = column * _per_card(data, st)
            v = w.market_rupee * st.market_rupees[arg] - w.cost * price
            if card >= len(data.court):
                return v + self._event_value(st, card)
            over = (
                len(st.hand[me])
                >= A.stars(data, st, me, "intelligence") + data.numbers.hand_limit_base
            )
            return v + w.purchase + self.card_value(st, card) + (w.hand_over if over else 0.0)
        if verb == O.PLAY:
            _, bribe = ruling.bribe(data, st, me, arg)
            limit = data.numbers.court_limit_base + A.stars(data, st, me, "political")
            over = len(st.court[me]) >= limit
            return (
                w.play + self.card_value(st, arg) - w.cost * bribe + (w.court_over if over else 0.0)
            )
        name = data.actions[verb - O.FIRST_ACTION]
        owed = A.hostage_bribe(data, st, me, arg)
        return self._action_value(st, arg, name) - w.cost * owed

    def _action_value(self, st: Any, card: int, name: str) -> float:
        data, w, me = self.data, self.w, self.me
        rank = data.court[card].rank
        if name == "tax":
            ruled = O.ruled_regions(data, st, me)
            have = sum(st.market_rupees[s] for s, c in enumerate(st.market) if c != EMPTY)
            have += sum(A.vulnerable(data, st, p) for p in A.taxable(data, st, me, ruled))
            return w.tax * min(rank, have)
        if name == "gift":
            cost = A.gift_cost(data, st, me)
            cylinder = w.cylinder if self.unsuccessful else 0.0
            return (w.gift if self.leading else w.gift_behind) + cylinder - w.cost * cost
        if name == "build":
            n = min(
                data.numbers.build_max_blocks, st.rupees[me] // data.numbers.build_cost_per_block
            )
            return n * (w.build - w.cost * data.numbers.build_cost_per_block)
        if name == "betray":
            targets = self._betrayals(st)
            return (
                w.betray - w.cost * data.numbers.betray_cost + (max(targets)[0] if targets else 0)
            )
        if name == "battle":
            sites = O.battle_sites(data, st, me)
            most = max(
                min(O.battle_room(data, st, me, card, s), len(O.battle_units(data, st, me, s, {})))
                for s in sites
            )
            return w.battle * most
        return w.move

    def card_value(self, st: Any, card: int) -> float:
        """A court card's worth in the bot's court (RB p6, p7, p11)."""
        data, w = self.data, self.w
        info = data.court[card]
        mine = st.loyalty[self.me]
        v = w.rank * info.rank + (w.favored if info.suit == st.favored else 0.0)
        v += (w.political, w.intelligence, w.economic, w.military)[info.suit]
        if info.patriot != NONE:
            v += w.patriot_mine if info.patriot == mine else w.patriot_other
        block = w.block_icon if self.leading else w.block_icon_behind
        cylinder = w.cylinder if self.unsuccessful else 0.0
        for icon in info.icons:
            name = data.icons[icon]
            if name in ("army", "road"):
                v += block
            elif name == "tribe":
                v += w.tribe_icon + cylinder
            elif name == "spy":
                v += w.spy_icon + cylinder
            elif name == "leverage":
                v += w.leverage_icon
        return v + w.action_icon * len(info.actions)

    def _event_value(self, st: Any, card: int) -> float:
        """A Dominance Check bought now: the points it gives the bot less the best other's
        (RB p15); another event: its rupees only."""
        data, w = self.data, self.w
        if card not in data.dominance_checks:
            return 0.0
        result = dominance.check(data, st)
        others = max(v for p, v in enumerate(result.awarded) if p != self.me)
        margin = result.awarded[self.me] - others
        if result.dominant is None:
            return w.check_cylinders * margin
        return w.check_mine * margin / 5 if margin > 0 else w.check_other

    def _betrayals(self, st: Any) -> list[tuple[float, int]]:
        from simulate.pax_pamir import military

        data, w, me = self.data, self.w, self.me
        out = []
        for c in military.betray_targets(data, st, me):
            if c in st.court[me]:
                continue
            prize = data.court[c].prize
            out.append(
                (w.rank * data.court[c].rank + (w.prize_mine if prize == st.loyalty[me] else 0), c)
            )
        return out

    # -- sub-choices ---------------------------------------------------------------------
    def _loyalty(self, st: Any, d: Any) -> int:
        """The coalition fewest others chose before (RB p4 Starting Loyalty)."""
        taken = [c for p, c in enumerate(st.loyalty) if p != self.me and c >= 0]
        return min(d.options, key=lambda c: (taken.count(c), self.rng.random()))

    def _ask(self, st: Any, d: Any) -> int:
        return max(d.options)  # a ruler or holder asks the whole bribe (RB p11, p12)

    def _pay(self, st: Any, d: Any) -> int:
        return 1

    def _side(self, st: Any, d: Any) -> int:
        return d.options[-1]

    def _road(self, st: Any, d: Any) -> int:
        """The border touching the most armies of the bot's coalition."""
        data, c = self.data, st.loyalty[self.me]

        def armies(b: int) -> int:
            return sum(st.armies[st.army_at(r, c)] for r in data.borders[b])

        return max(d.options, key=armies)

    def _spy(self, st: Any, d: Any) -> int:
        """A card of another player's court, the highest rank (a hostage, RB p12)."""
        from simulate.pax_pamir.military import owner_of

        data = self.data
        return max(d.options, key=lambda c: (owner_of(st, c) != self.me, data.court[c].rank))

    def _tax(self, st: Any, d: Any) -> int:
        """Players first, the richest, then the market card with most rupees (RB p13)."""

        def key(o: int) -> tuple:
            if o == O.STOP:
                return (-1, 0)
            if o >= O.PLAYER_CODE:
                return (2, st.rupees[o - O.PLAYER_CODE])
            return (1, st.market_rupees[o])

        return max(d.options, key=key)

    def _build(self, st: Any, d: Any) -> int:
        """An army in the ruled region where the bot's margin is smallest, else a road."""
        me = self.me
        armies = [o for o in d.options if o < O.ROAD_CODE]
        if armies:

            def margin(r: int) -> int:
                mine = ruling.ruling_pieces(st, r, me)
                return mine - max(
                    (ruling.ruling_pieces(st, r, p) for p in range(st.players) if p != me),
                    default=0,
                )

            return min(armies, key=margin)
        return _first(d.options)

    def _move(self, st: Any, d: Any) -> int:
        return O.STOP if O.STOP in d.options else d.options[0]

    def _battle_site(self, st: Any, d: Any) -> int:
        data, me = self.data, self.me
        return max(d.options, key=lambda s: len(O.battle_units(data, st, me, s, {})))

    def _battle(self, st: Any, d: Any) -> int:
        """Armies of the most numerous enemy coalition, then roads, tribes, spies (RB p14)."""
        blocks = dominance.blocks_in_play(st)

        def key(o: int) -> tuple:
            if o == O.STOP:
                return (-1, 0)
            if o < O.ROAD_UNIT:
                return (3, blocks[o])
            if o < O.TRIBE_UNIT:
                return (2, blocks[(o - O.ROAD_UNIT) % 4])
            return (1, 0)

        return max(d.options, key=key)

    def _betray(self, st: Any, d: Any) -> int:
        ranked = dict((c, v) for v, c in self._betrayals(st))
        return max(d.options, key=lambda c: ranked.get(c, -10.0))

    def _prize(self, st: Any, d: Any) -> int:
        return 1 if self.data.court[d.context].prize == st.loyalty[self.me] else 0

    def _least(self, st: Any, d: Any) -> int:
        self.position(st)
        return min(
            d.options, key=lambda c: self.card_value(st, c) if c < len(self.data.court) else 0
        )

    _court_discard = _hand_discard = _repay = _discard = _least

    def _blackmail(self, st: Any, d: Any) -> int:
        return _first(d.options)

    def _rumor_target(self, st: Any, d: Any) -> int:
        return max(d.options, key=lambda p: st.points[p])

    def _swap_with(self, st: Any, d: Any) -> int:
        return max(d.options, key=lambda p: len(st.hand[p]))

    def _favored_suit(self, st: Any, d: Any) -> int:
        data, court = self.data, st.court[self.me]
        return max(d.options, key=lambda s: sum(data.court[c].suit == s for c in court))

    def _region(self, st: Any, d: Any) -> int:
        """The region holding the most enemy armies and tribes (Rebuke)."""
        mine = st.loyalty[self.me]

        def enemies(r: int) -> int:
            armies = sum(st.armies[st.army_at(r, c)] for c in range(len(st.blocks)) if c != mine)
            tribes = sum(st.tribes[st.tribe_at(r, p)] for p in range(st.players) if p != self.me)
            return armies + tribes - st.tribes[st.tribe_at(r, self.me)]

        return max(d.options, key=enemies)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _first(options: tuple[int, ...]) -> int:
    return next((o for o in options if o != O.STOP), options[0])


def _per_card(data: Any, st: Any) -> int:
    """Rupees per card to the left of a purchase (RB p10: doubled when military is favored)."""
    military = data.suits.index("military")
    return data.numbers.military_cost_multiplier if st.favored == military else 1
