"""The learned choice's terms (``play.choice.terms``, 2.3.3): the features of an option of the
turn and of its position that a fitted choice weighs (``strategies/vijayanagara/fitting/choice_fit.py``
fits them; ``TurnPlanner.fitted_choice`` plays them).

An option's features are its value to the bot, its action, Command and Decree, the action's
own scale on the value and the pairs action-Command and Command-Decree; each may be crossed
with the position's (how far through the deck, own Resources, the evaluation's margin, the
Dynasty).
"""

from __future__ import annotations

from simulate.vijayanagara.rules.sequence import NO_COMMAND as NONE
from simulate.vijayanagara.rules.state import KHALJI

# play.choice.terms: the features of the position an option's terms are crossed with
CHOICE_CONTEXT = ("late", "late2", "resources", "margin", "khalji")


def choice_context(progress: float, resources: int, margin: float, dynasty: int) -> tuple:
    """The position's features for ``play.choice.terms`` (2.3.3): how far through the deck
    (and its square), own Resources and the evaluation's margin (both / 10), and 1 while the
    Khalji Dynasty rules (2.7: before the first Succession card makes it Tughlaq), else 0."""
    khalji = 1.0 if dynasty == KHALJI else 0.0
    return (progress, progress * progress, resources / 10.0, margin / 10.0, khalji)


def option_features(v: float, plan: dict) -> list:
    """An option's features for ``play.choice.terms``, as (name, value): its value to the bot
    (``v``), its action (``a:``), Command (``c:``) and Decree (``d:``), the action's own
    scale on ``v`` (``va:``), and the pairs action-Command (``ac:``) and Command-Decree
    (``cd:``)."""
    names = feature_names(plan["action"], plan.get("command"), plan.get("decree"))
    return [(name, v if on_v else 1.0) for name, on_v in names]


def feature_names(a: str, c: str | None, d: str | None) -> list:
    """``option_features`` of action ``a``, Command ``c`` and Decree ``d`` as (name, whether
    its value is the option's value ``v``, else 1), in that order."""
    out = [("v", True), ("a:" + a, False), ("va:" + a, True)]
    if c and c != NONE:
        out.append(("c:" + c, False))
        out.append(("ac:" + a + ":" + c, False))
        if d:
            out.append(("cd:" + c + ":" + d, False))
    if d:
        out.append(("d:" + d, False))
    return out


class ChoiceTerms(tuple):
    """``play.choice.terms`` compiled: (context index, {feature: weight}) per table (-1: the
    option's own terms), and, found once per (action, Command, Decree), the weights of its
    features in each table (``coefficients``): the bots score thousands of options a game."""

    def __new__(cls, tables) -> ChoiceTerms:
        self = tuple.__new__(cls, tables)
        self.memo = {}
        return self

    def coefficients(self, a: str, c: str | None, d: str | None) -> tuple:
        """Per table with a weight on one of this option's features: (context index,
        ((weight, whether it multiplies ``v``), ...)) in ``option_features`` order."""
        key = (a, c, d)
        got = self.memo.get(key)
        if got is None:
            names = feature_names(a, c, d)
            got = []
            for k, table in self:
                pairs = tuple([(table[n], on_v) for n, on_v in names if n in table])
                if pairs:
                    got.append((k, pairs))
            got = self.memo[key] = tuple(got)
        return got


def compile_terms(terms: dict) -> ChoiceTerms:
    """``play.choice.terms`` ({"late*c:rally": w, "ac:limited:rally": w, ...}) as one table
    of weights per context feature (-1: the option's own terms), checked once (a bot's
    ``SharedWeights.derived`` keeps them for every bot of the process)."""
    tables: dict[int, dict] = {}
    for key, w in terms.items():
        if not isinstance(w, (int, float)) or isinstance(w, bool):
            raise ValueError(f"play.choice.terms.{key} must be a number, got {w!r}")
        z, star, name = key.partition("*")
        if not star:
            z, name = "", key
        elif z not in CHOICE_CONTEXT:
            raise ValueError(
                f"play.choice.terms.{key}: no context {z!r} (known: {', '.join(CHOICE_CONTEXT)})"
            )
        k = CHOICE_CONTEXT.index(z) if z else -1
        tables.setdefault(k, {})[name] = float(w)
    return ChoiceTerms(sorted(tables.items()))
