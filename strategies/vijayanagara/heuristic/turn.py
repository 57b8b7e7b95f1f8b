"""The heuristic's turn (2.3.3): which option (Command + Decree, Event, Command, Limited
Command, Pass), which Command and Decree, and which spaces, one at a time (3.1.1).

``TurnPlanner.k_action`` values each Command by its best spaces (each less the Resource it
costs, 3.1.3) and each Decree, and plans the turn (``plan``); the later decisions of the turn
follow the plan. With a learned choice (``play.choice``, ``choice.py``) the option is the one
a fit to search values scores best (``fitted_choice``); without one, the Event is weighed
against the planned Command by its owner (``HeuristicStrategy.consider_event``). What each
option would do and is worth is kept in ``last`` for the searches over this bot.
"""

from __future__ import annotations

from operator import itemgetter

from simulate.vijayanagara.rules.decisions import DONE
from simulate.vijayanagara.rules.events import SIDES  # an Event's two texts (2.3.4)
from simulate.vijayanagara.rules.sequence import COMMAND, LIMITED, PASS
from simulate.vijayanagara.rules.sequence import COMMAND_DECREE as CD
from simulate.vijayanagara.rules.sequence import EVENT_OPTION as EVENT
from simulate.vijayanagara.rules.sequence import NO_COMMAND as NONE

from .choice import choice_context
from .valuation import Valuation

UNDOABLE = -1e6  # an option valued below this is one the bot would never take
SPACE_REFRESH = 3  # spaces whose values are refreshed at each selection (k_space)


def plan_of(row: tuple) -> dict:
    """The turn plan of an ``option_rows`` row (value, action, Command, Decree, force, side),
    as ``options_here`` gives it."""
    a = row[1]
    if a == PASS:
        return {"action": a}
    if a == EVENT:
        return {"action": a, "side": row[5]}
    return {"action": a, "command": row[2], "decree": row[3], "force": row[4]}


class TurnPlanner(Valuation):
    """The turn of a faction bot: its plan, the option's value to it, the learned choice, and
    the Command, Decree and spaces that follow the plan."""

    def command_value(self, obs, name: str, limited: bool, free: bool = False) -> tuple[float, int]:
        """Net worth of a Command and its best first space (see ``command_values``)."""
        full, lim, first = self.command_values(obs, name, free)
        return (lim if limited else full), first

    def command_values(self, obs, name: str, free: bool = False) -> tuple[float, float, int]:
        """(full, limited, first space): the space values, best first, each less the
        Resource it costs (3.1.3), summed while that stays positive; the best one alone.
        Computed once per position (and Resources, and Migrate's Influence shift plan)."""
        r = self.resources[self.faction]
        key = ("command", name, free, r, bool(self.plan.get("shifted")))
        hit = self._spaces.get(key)
        if hit is None:
            hit = self._spaces[key] = self._command_values(obs, name, free, r)
        full, lim, first, ranked = hit
        if ranked is not None:
            self.ranked[name] = ranked  # for the spaces chosen next (k_space)
        return full, lim, first

    def _command_values(self, obs, name: str, free: bool, r: int):
        values = self.space_values(obs, name)
        if not values:
            return 0.0, 0.0, -1, None
        values.sort(key=itemgetter(0), reverse=True)  # best first; ties keep their order
        ranked = {s: v for v, s in values}
        total = 0.0
        first_net = 0.0
        for i, (v, _s) in enumerate(values):
            if not free and i >= r:
                break
            net = v if free else v - self.cost(r - i)
            if i == 0:
                first_net = net
            elif net <= 0:
                break
            total += net
        return total, first_net, values[0][1], ranked

    def k_action(self, obs, d):
        self.battle = None
        self.ranked = {}
        self.plan = {}  # a new turn: nothing of the last one's plan (Migrate's shift) holds
        opts = d.options
        f = self.faction
        best_cmd, cmd_val, lim_cmd, lim_val = NONE, 0.0, NONE, -1e9
        cvals = {}  # (full, limited) by Command, for option_rows
        if self.resources[f] > 0 and (COMMAND in opts or LIMITED in opts or CD in opts):
            for name in self.commands:
                full, lim, _ = self.command_values(obs, name)
                cvals[name] = (full, lim)
                if full > cmd_val:
                    best_cmd, cmd_val = name, full
                if lim > lim_val:
                    lim_cmd, lim_val = name, lim
        best_dec, dec_val = None, -1e9
        dec_values = []
        if CD in opts:
            for name in self.decrees:
                v = self.decree_value(obs, name)
                dec_values.append((name, v))
                if v is not None and v > dec_val:
                    best_dec, dec_val = name, v
        elig = float(self.play["eligibility"])
        r = self.resources[f]
        values = {PASS: self.gain_value(r, self.rules.pass_income[f]) + elig}
        if CD in opts and best_dec is not None:
            values[CD] = dec_val + max(0.0, cmd_val)
        if COMMAND in opts and best_cmd != NONE:
            values[COMMAND] = cmd_val
        if LIMITED in opts and lim_cmd != NONE:
            values[LIMITED] = lim_val + elig
        choice = max((o for o in opts if o in values), key=lambda o: values[o], default=PASS)
        self.plan = {
            "action": choice,
            "command": lim_cmd if choice == LIMITED else best_cmd,
            "decree": best_dec,
        }
        # for the search bots: what each option would do, and what it is worth
        self.last = {
            "values": values,
            "command": best_cmd,
            "limited": lim_cmd,
            "decree": best_dec,
            "decrees": dec_values,
            "command_values": cvals,
            "choice": choice,
        }
        if self.choice is not None:
            return self.fitted_choice(obs, d)
        if EVENT in opts:
            choice = self.owner.consider_event(obs, d, choice, values.get(choice, 0.0))
        return choice

    def options_here(self, obs, d) -> list:
        """Every option of this turn (2.3.3) as (the bot's own value of it, its plan): each
        offered action with each Command that has a space to select (3.1.1), Command +
        Decree with each Decree it may take (4.0), both Event sides (2.3.4), Pass (2.3.6).
        The values are ``k_action``'s (after it ran on this position); a plan that is not
        the bot's own for its action is forced (``force``)."""
        return [(row[0], plan_of(row)) for row in self.option_rows(obs, d)]

    def option_rows(self, obs, d) -> list:
        """``options_here`` as (value, action, Command, Decree, force, Event side) rows, what
        ``fitted_choice`` scores: the plan is made for the chosen option only."""
        last = self.last
        values = last["values"]
        cmd, lim, dec = last["command"], last["limited"], last["decree"]
        elig = float(self.play["eligibility"])
        usable = []  # as k_action: no Command without Resources to pay for a space (3.2-3.4)
        if self.resources[self.faction] > 0:
            usable = [c for c in self.commands if self.spaces_for(obs, c)]
        decs = last["decrees"]
        cvals = last["command_values"]  # as k_action found them on this position
        out = []
        for a in d.options:
            if a == PASS:
                out.append((values[PASS], a, None, None, False, None))
            elif a == EVENT:
                entry = self.owner.event_entry(obs, d, last["choice"])
                if entry is None:
                    continue  # a bot that never weighs the Event (2.3.4)
                side, gain = entry
                here = values.get(last["choice"], 0.0)
                for s in SIDES:
                    out.append((here + (gain if s == side else -1.0), a, None, None, False, s))
            elif a == LIMITED:
                for c in ([lim] if lim != NONE else []) + [c for c in usable if c != lim]:
                    v = cvals[c][1] + elig
                    out.append((v, a, c, None, c != lim, None))
            elif a == COMMAND:
                for c in ([cmd] if cmd != NONE else []) + [c for c in usable if c != cmd]:
                    v = cvals[c][0]
                    out.append((v, a, c, None, c != cmd, None))
            elif a == CD:
                for c in [cmd] + [c for c in usable if c != cmd]:
                    full = cvals[c][0] if c != NONE else 0.0
                    for x, dv in decs:
                        if dv is None or (c == NONE and x != dec):
                            continue  # a Decree it may not take; no Command: only its own
                        own = c == cmd and x == dec
                        out.append((dv + max(0.0, full), a, c, x, not own, None))
        return [o for o in out if o[0] > UNDOABLE]  # a space valued -1e9 is never chosen

    def fitted_choice(self, obs, d):
        """``play.choice``: the option of ``options_here`` with the best fitted score, scale x
        the bot's own value plus the biases of its action, Command and Decree, learned from
        search values of the same options (``choice_fit.py``)."""
        ch = self.choice
        scale, ab, cb, db = ch["scale"], ch["action"], ch["command"], ch["decree"]
        terms = self.terms
        ctx = ()
        if terms:
            f = self.faction
            margin = self.ev.margin_of(self.scores_now(obs), f)  # once per position
            # self.resources, self._dyn: current (choose, _moved)
            ctx = choice_context(self.progress, self.resources[f], margin, self._dyn)
        best_v, best = -1e18, None
        for row in self.option_rows(obs, d):
            x, a, c, dec = row[0], row[1], row[2], row[3]
            v = scale * x + ab[a]
            v += cb.get(c, 0.0) + db.get(dec, 0.0)
            if terms:
                v += self.terms_value(terms.coefficients(a, c, dec), x, ctx)
            if v > best_v:
                best_v, best = v, row
        if best is None:  # nothing it would do: its own choice
            return self.last["choice"]
        self.plan = plan_of(best)
        return best[1]

    def terms_value(self, coef: tuple, x: float, ctx: tuple) -> float:
        """``terms_score`` of an option valued ``x`` from its ``ChoiceTerms.coefficients``:
        the same sums in the same order, without building or looking up its features."""
        total = 0.0
        for k, pairs in coef:
            acc = 0.0
            for w, on_v in pairs:
                acc += w * x if on_v else w
            total += acc if k < 0 else acc * ctx[k]
        return total

    def terms_score(self, feats: list, ctx: tuple) -> float:
        """``play.choice.terms`` of one option: each table's weights on its features, times
        its context feature (1 for the option's own terms)."""
        total = 0.0
        for k, table in self.terms:
            acc = 0.0
            for name, x in feats:
                w = table.get(name)
                if w is not None:
                    acc += w * x
            total += acc if k < 0 else acc * ctx[k]
        return total

    def k_decree_timing(self, obs, d):
        dec = self.plan.get("decree")
        return "decree_first" if dec in self.timing_first else "command_first"

    def k_command(self, obs, d):
        opts = d.options
        planned = self.plan.get("command")
        limited = self.plan.get("action") == LIMITED
        if planned in opts and planned != NONE:
            if self.plan.get("force"):
                return planned
            v, _ = self.command_value(obs, planned, limited)
            if v > 0 or NONE not in opts:
                return planned
        best, best_v = None, -1e9
        for o in opts:
            if o == NONE:
                continue
            v, _ = self.command_value(obs, o, limited)
            if v > best_v:
                best, best_v = o, v
        if NONE in opts and (best is None or best_v <= 0):
            return NONE
        return best

    def k_decree(self, obs, d):
        planned = self.plan.get("decree")
        if self.plan.get("force") and planned in d.options:
            return planned
        best, best_v = d.options[0], -1e9
        for o in d.options:
            v = self.decree_value(obs, o)
            if v is not None and v > best_v:
                best, best_v = o, v
        return best

    def k_space(self, obs, d):
        """The best offered space. Values are refreshed for the few spaces that ranked best
        when the Command was planned (and any space new since), not for all of them: each
        selection changes the board only around the space just resolved (3.1.1)."""
        name = d.context
        r = self.resources[self.faction]
        ranked = self.ranked.get(name)
        opts = [s for s in d.options if s != DONE]
        if ranked is not None and len(opts) > SPACE_REFRESH:
            old = [s for s in opts if s in ranked]
            old.sort(key=lambda s: -ranked[s])
            opts = old[:SPACE_REFRESH] + [s for s in opts if s not in ranked]
        best, best_v = None, -1e9
        for s in opts:
            v = self.cached_space_value(obs, name, s)
            if v > best_v:
                best, best_v = s, v
        if DONE in d.options and (best is None or best_v - self.cost(r) <= 0):
            return DONE
        return best
