"""The Sequence of Play (2.2, 2.3): drawing cards, Faction order, the forked options, Limited
Command, Pass, and adjusting Eligibility. Interrupting cards are in invasion.py and succession.py."""

from __future__ import annotations

from . import commands, decrees, events, invasion, succession
from .context import Context
from .pieces import FACTIONS
from .ruleset import EVENT, MONGOL_CARD, SUCCESSION, TIMURID
from .tracks import add_resources

COMMAND_DECREE, EVENT_OPTION, COMMAND, LIMITED, PASS = (
    "command_decree",
    "event",
    "command",
    "limited",
    "pass",
)
NO_COMMAND = "none"


def next_card(ctx: Context) -> None:
    """Reveal the top card and carry it out (2.3, 2.4-2.6)."""
    st = ctx.state
    idx = st.deck[st.pos]
    st.pos += 1
    st.card = idx
    ctx.log = [["none", None, None] for _ in range(3)]
    card = ctx.rules.cards[idx]
    st.fork_cd = st.fork_ec = -1  # 2.3.3: the forks belong to one Event card; none on others
    if card.kind == EVENT:
        st.acted = 0
        st.elig_next = [-1, -1, -1]
        st.stay = 0
        resume_card(ctx)
    elif card.kind == MONGOL_CARD:
        invasion.mongol_invasion(ctx, card)
    elif card.kind == SUCCESSION:
        succession.resolve(ctx, card)
    elif card.kind == TIMURID:
        invasion.timurid(ctx)


def resume_card(ctx: Context) -> None:
    """Let each Eligible Faction that has not yet acted on the Event card act, in the card's
    order (2.3.2), then adjust Eligibility (2.3.7). Resumable from any Faction's turn."""
    st = ctx.state
    for f in ctx.rules.cards[st.card].order:
        if st.acted >> f & 1:
            continue
        if st.eligible[f]:
            faction_turn(ctx, f)
        st.acted |= 1 << f
    adjust_eligibility(ctx)


def action_options(ctx: Context, f: int, cmds: list[str] | None = None) -> tuple[str, ...]:
    """What an Eligible Faction may do now (2.3.3, 2.3.5, 2.3.6); options that could not do
    anything are left out."""
    st = ctx.state
    if cmds is None:
        cmds = commands.available_commands(ctx, f)
    out = []
    if st.fork_cd < 0 and (cmds or decrees.available_decrees(ctx, f)):
        out.append(COMMAND_DECREE)
    if st.fork_ec < 0:
        if event_playable(ctx, f):
            out.append(EVENT_OPTION)
        if cmds or ctx.rules.readings.get("fork_command_zero_spaces"):
            out.append(COMMAND)
    if cmds:
        out.append(LIMITED)
    out.append(PASS)
    return tuple(out)


def event_playable(ctx: Context, f: int) -> bool:
    """Whether the Event option is offered (2.3.4)."""
    return events.enabled(ctx)


def faction_turn(ctx: Context, f: int, forced: str | None = None) -> None:
    """One Eligible Faction's action on the current Event card (2.3.3)."""
    st = ctx.state
    if forced is None:
        # whether any Command is possible is enough here; the list is built if one is chosen
        any_command = commands.available_commands(ctx, f, first=True)
        options = action_options(ctx, f, any_command)
        action = ctx.ask(f, "action", options, ctx.rules.cards[st.card].id)
    else:
        action = forced
    log = ctx.log[f]
    log[0] = action
    if action == PASS:
        add_resources(ctx, f, ctx.rules.pass_income[f])  # 2.3.6
    elif action == LIMITED:
        log[1] = _command(ctx, f, limited=True)
    elif action == COMMAND:
        st.fork_ec = f
        # 2.3.3 "a Command (3.0) in any number of spaces without a Decree": at least one space
        # (the first fork alone says "possibly zero"); readings.fork_command_zero_spaces: none
        log[1] = _command(ctx, f, optional=ctx.rules.readings.get("fork_command_zero_spaces"))
    elif action == COMMAND_DECREE:
        st.fork_cd = f
        if ctx.ask(f, "decree_timing", ("decree_first", "command_first")) == "decree_first":
            log[2] = _decree(ctx, f)
            log[1] = _command(ctx, f, optional=True)
        else:
            log[1] = _command(ctx, f, optional=True)
            log[2] = _decree(ctx, f)
    elif action == EVENT_OPTION:
        st.fork_ec = f
        log[0] = events.play_event(ctx, f)
    ctx.action_done()


def _command(ctx: Context, f: int, limited: bool = False, optional: bool = False) -> str | None:
    options = commands.available_commands(ctx, f)
    if optional:
        options = [*options, NO_COMMAND]
    if not options:
        return None
    name = ctx.ask(f, "command", tuple(options))
    if name == NO_COMMAND:
        return None
    commands.execute(ctx, f, name, limited=limited)
    return name


def _decree(ctx: Context, f: int) -> str | None:
    options = decrees.available_decrees(ctx, f)
    if not options:
        return None
    name = ctx.ask(f, "decree", tuple(options))
    decrees.execute(ctx, f, name)
    return name


def adjust_eligibility(ctx: Context) -> None:
    """Factions that took a forked option become Ineligible unless they took a Stay Eligible
    Event; all others become Eligible; an Event's explicit setting wins (2.3.7)."""
    st = ctx.state
    for f in FACTIONS:
        if st.elig_next[f] >= 0:
            st.eligible[f] = bool(st.elig_next[f])
        elif (st.fork_cd == f or st.fork_ec == f) and not (st.stay >> f & 1):
            st.eligible[f] = False
        else:
            st.eligible[f] = True
