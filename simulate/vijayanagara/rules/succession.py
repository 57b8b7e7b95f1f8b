"""The three Succession cards (2.5) and the Dynasty card (2.7)."""

from __future__ import annotations

from . import commands
from .context import Context
from .decisions import DONE
from .decrees import campaign
from .influence import shift
from .pieces import BK, DS, FACTIONS, NK, STRUCTURE_OF, VE
from .ruleset import Card
from .state import TUGHLAQ
from .tracks import add_resources, gain_cavalry


def resolve(ctx: Context, card: Card) -> None:
    """Carry out the card's steps in order; no Eligibility adjustment follows (2.5)."""
    st = ctx.state
    # Event modifiers lasting "until the next Succession card" end as it is revealed (EVENTS_SCHEMA 6.16)
    st.lasting = tuple([m for m in st.lasting if m[2] != "next_succession"])
    {"zenith": zenith, "rise": rise, "lords": lords}[card.id](ctx)
    ctx.action_done()


def _campaign(ctx: Context) -> None:
    """The Sultanate may Campaign using only Delhi and Provinces (2.5.1 step 2, 2.5.2 step 1)."""
    if campaign.possible(ctx, DS, provinces_only=True) and ctx.ask(
        DS, "succession_campaign", (True, False)
    ):
        campaign.execute(ctx, DS, provinces_only=True)
        ctx.log[DS][2] = "campaign"


def _structures(ctx: Context, f: int) -> int:
    p = ctx.state.pieces
    return sum([p[s * NK + STRUCTURE_OF[f]] for s in ctx.rules.board.provinces])


def zenith(ctx: Context) -> None:
    """Zenith of the Delhi Sultanate (2.5.1)."""
    st = ctx.state
    st.dynasty = TUGHLAQ  # 2.7.2: Rebel is now available
    _campaign(ctx)
    gain_cavalry(ctx, BK, st.influence[BK] + _structures(ctx, BK))
    add_resources(ctx, VE, st.influence[VE] + _structures(ctx, VE))


def rise(ctx: Context) -> None:
    """Rise of the Rebel Sultans (2.5.2)."""
    _campaign(ctx)
    for f in (BK, VE):
        options = commands.available_commands(ctx, f, free=True)
        if options:
            name = ctx.ask(f, "succession_command", ("decline", *options))
            if name != "decline":
                commands.execute(ctx, f, name, limited=True, free=True)
                ctx.log[f][1] = name
        st = ctx.state
        pr = ctx.rules.board.prosperity
        gain = min(
            ctx.rules.succession["rise_max_gain"],
            sum([pr[s] for s in ctx.rules.board.provinces if st.control[s] == f]),
        )
        if gain:
            res = ctx.ask(f, "succession_gain", tuple(range(gain, -1, -1)))
            add_resources(ctx, f, res)
            gain_cavalry(ctx, f, gain - res)


def lords(ctx: Context) -> None:
    """Lords of the Deccan (2.5.3): DS, then BK, then VE may each pay 3 Resources per shift of
    either Deccan Influence by one, up to three times."""
    st = ctx.state
    cost = ctx.rules.succession["lords_cost"]
    imax = ctx.rules.influence_max
    for f in FACTIONS:
        for _ in range(ctx.rules.succession["lords_times"]):
            if st.resources[f] < cost:
                break
            options: list = [DONE]
            for g in (BK, VE):
                if st.influence[g] < imax:
                    options.append((g, 1))
                if st.influence[g] > 0:
                    options.append((g, -1))
            choice = ctx.ask(f, "lords_shift", tuple(options))
            if choice == DONE:
                break
            st.resources[f] -= cost
            shift(ctx, choice[0], choice[1])
