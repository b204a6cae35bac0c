"""A move being made, as values: its steps, what each step kind is lit with and how it is
worded, and how the players' touches count. Nothing here knows a game; the steps come from the
physical contract (``engines/core/contract.py``).

Step kinds (:data:`STEPS`): ``remove`` and ``twin`` are seen as sites emptying / filling;
``flip``, ``pick`` and ``carry`` leave the occupancy as it was. A flip and a pick are made by a
*touch*: a token lifted and set back (seen once the board settles with it down). Touches count
in any order the players choose; a touch that could mean two things is taken in the rules'
order (the earlier step first).

Every instruction names its sites:

>>> STEPS["flip"].words(["a1", "b2"]), STEPS["pick"].words(["h4", "h5"])
('Flip a1, b2', 'Tap h4 or h5')
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Literal, NamedTuple, cast

from engines.core import FollowUp, GameState, Realisation
from engines.core.contract import Action
from firmware_host.board.recognise import Candidate
from firmware_host.i18n import N_, _, ngettext, reword

#: What a lit site asks of the players, one kind per light (the view gives each its colour and
#: pattern: ``firmware_host.board.view.LIGHTS``).
LightKind = Literal[
    "target",
    "remove",
    "twin",
    "pick",
    "picked",
    "flip",
    "marker",
    "empty",
    "carry",
    "fill",
    "missing",
    "extra",
    "win",
    "hint",
    "low_time",
]
#: What a ``guide`` event asks: a step, or OK to end the turn.
GuideAction = Action | Literal["confirm"]


class StepKind(NamedTuple):
    """How a step kind is lit and worded: ``one`` for one site, ``several`` for more, each
    naming them (``{sites}``); ``either``: the sites are alternatives ("h4 or h5")."""

    light: LightKind
    one: str
    several: str
    either: bool = False

    def words(self, sites: Iterable[str]) -> str:
        sites = by_name(sites)
        text = _(self.one if len(sites) == 1 else self.several)
        return text.format(sites=named(sites, either=self.either))


STEPS: dict[Action, StepKind] = {
    "remove": StepKind("remove", N_("Take {sites} off"), N_("Take {sites} off")),
    "twin": StepKind("twin", N_("Place the twin on {sites}"), N_("Place the twins on {sites}")),
    "flip": StepKind("flip", N_("Flip {sites}"), N_("Flip {sites}")),
    "pick": StepKind("pick", N_("Tap {sites}"), N_("Tap {sites}"), either=True),
    "carry": StepKind(
        "carry", N_("Move the unseen piece off {sites}"), N_("Move the unseen pieces off {sites}")
    ),
}

#: Steps the sensors cannot see done: made by touches (flip, pick) or confirmed by OK (carry).
TOUCHED = ("flip", "pick")


def words(step: FollowUp, sites: Iterable[str]) -> str:
    """What the players are asked to do for ``step`` with ``sites`` left, naming them: the
    game's own words (with the sites, unless they name them already), else the step kind's; a
    carry, which no sensor sees done, is confirmed by OK.

    >>> words(FollowUp("remove", frozenset({"d7ne", "e7nw"}), "Remove the lit Archer"), {"d7ne", "e7nw"})
    'Remove the lit Archer: d7ne, e7nw'
    >>> words(FollowUp("carry", frozenset({"a1"}), "Blue pawn: a1 back to e1"), {"a1"})
    'Blue pawn: a1 back to e1, then OK'
    """
    sites, prompt = by_name(sites), reword(step.prompt)
    if not step.prompt:
        text = STEPS[step.action].words(sites)
    elif not sites or any(re.search(rf"(?<![\w*]){re.escape(s)}(?![\w*])", step.prompt) for s in sites):
        text = prompt
    else:
        text = f"{prompt}: {named(sites, either=STEPS[step.action].either)}"
    return _("{step}, then OK").format(step=text) if step.action == "carry" else text


def by_name(sites: Iterable[str]) -> list[str]:
    """Sites in the order people read their names ("a2" before "a10").

    >>> by_name(["a10", "b1", "a2"])
    ['a2', 'a10', 'b1']
    """
    return sorted(
        sites,
        key=lambda s: [(p.isdigit(), int(p) if p.isdigit() else 0, p) for p in re.findall(r"\d+|\D+", s)],
    )


#: Before the move shows, a token of the position off its switch for less than this (ms) was
#: knocked by the hand on its way, not touched on purpose: a flip or a tap takes longer.
KNOCK_MS = 200
#: A site closed for less than this (ms) had a hand pass over it; longer, a piece was set down.
HOVER_MS = 100


class Touch(NamedTuple):
    """A token lifted and set back: its ``site`` and for how long (ms) it was off. A touch can
    be a flip; only a quick one (within ``tap_ms``) a tap (a pick)."""

    site: str
    held: float = 0.0
    quick: bool = True


@dataclass(frozen=True)
class Turn:
    """A move with its follow-ups under way: ``step`` is the first step not yet done; ``left``
    holds, per step, the sites a touch or OK must still do (sensed steps are read from the
    board instead); ``untouched``: tokens whose flip was taken as done without a touch (OK,
    or the next side began), which a touch may still come for; ``early``: the landing taken
    from a touch made before the move showed that other moves turn over (a token the pawn
    passes, turned on its way): a tap on such a move's landing chooses it instead;
    ``knocked``: tokens it turns that were off their switches when it was read (their return
    counted as the flip; the hand may have knocked them off instead)."""

    move: Any
    real: Realisation
    before: frozenset[str]
    side: str | None
    step: int = 0
    left: tuple[frozenset[str], ...] = ()
    untouched: frozenset[str] = frozenset()
    early: str | None = None
    knocked: frozenset[str] = frozenset()

    @classmethod
    def of(cls, cand: Candidate, before: frozenset[str], side: str | None) -> "Turn":
        """The turn of ``cand`` with its first ``cand.done`` steps done."""
        steps = cand.real.follow_ups
        left = tuple(frozenset() if i < cand.done or s.sensed else s.sites for i, s in enumerate(steps))
        return cls(cand.move, cand.real, before, side, cand.done, left)

    @classmethod
    def undo(cls, steps: tuple[FollowUp, ...], board: frozenset[str], side: str | None) -> "Turn":
        """The unsensed steps that undo a takeback (flips back, unseen pieces carried)."""
        return cls.of(Candidate(None, Realisation(frozenset(), frozenset(), steps)), board, side)

    @property
    def steps(self) -> tuple[FollowUp, ...]:
        return self.real.follow_ups

    @property
    def current(self) -> FollowUp | None:
        return self.steps[self.step] if self.step < len(self.steps) else None

    @property
    def done(self) -> bool:
        return self.step >= len(self.steps)

    def board(self, step: int | None = None) -> frozenset[str]:
        """The occupancy once the first ``step`` (default: the done) steps are done."""
        return self.real.board_after(self.before, self.step if step is None else step)

    def sensed_run(self) -> range:
        """The steps the sensors alone can carry the turn to from here."""
        end = self.step
        while end < len(self.steps) and self.steps[end].sensed:
            end += 1
        return range(self.step, end + 1)

    def only_unsensed_left(self) -> bool:
        """True when no step left changes what the sensors see."""
        return all(not s.sensed for s in self.steps[self.step :])

    def to_touch(self) -> frozenset[str]:
        """The tokens still to turn over or tap: one off the board is in the hand, not missing.

        >>> steps = (FollowUp("flip", frozenset({"a1"})), FollowUp("carry", frozenset({"e1"})))
        >>> sorted(Turn.undo(steps, frozenset({"a1", "e1"}), "blue").to_touch())
        ['a1']
        """
        touched = (left for step, left in zip(self.steps, self.left) if step.action in ("flip", "pick"))
        return frozenset().union(*touched)

    def last_flip(self) -> bool:
        """True when the current step is the move's last flip (polarity checks final faces)."""
        return all(s.action != "flip" for s in self.steps[self.step + 1 :])

    def pick_index(self) -> int | None:
        """The index of the pick step still to make, if any."""
        return next((i for i, s in enumerate(self.steps) if s.action == "pick" and self.left[i]), None)

    def remaining(self, board: frozenset[str]) -> frozenset[str]:
        """The sites the current step still needs: a sensed step's not yet shown done, an
        unsensed step's not yet touched."""
        step = self.current
        if step is None:
            return frozenset()
        return step.apply(board) ^ board if step.sensed else self.left[self.step]

    def taker(self, touch: Touch) -> int | None:
        """The step a touch counts for: the earliest with the site still to do (a pick only
        for a quick touch)."""
        for i, step in enumerate(self.steps):
            if (
                step.action in TOUCHED
                and touch.site in self.left[i]
                and (touch.quick or step.action != "pick")
            ):
                return i
        return None

    def touched(self, index: int, site: str) -> "Turn":
        """Step ``index`` has ``site`` done."""
        left = list(self.left)
        left[index] = left[index] - {site}
        return replace(self, left=tuple(left))

    def counted(self, touches: Iterable[Touch], board: frozenset[str]) -> "Turn":
        """``touches`` made already, each counted for the step it is for, and past every step
        then done (a takeback's tokens turned back before it was read: its first step told is
        one still to do).

        >>> steps = (FollowUp("flip", frozenset({"a1", "b2"})), FollowUp("carry", frozenset({"e1"})))
        >>> undo = Turn.undo(steps, frozenset({"a1", "b2", "e1"}), "blue")
        >>> turn = undo.counted([Touch("a1"), Touch("b2"), Touch("a1")], frozenset({"a1", "b2", "e1"}))
        >>> turn.current.action, sorted(turn.left[0])
        ('carry', [])
        """
        turn = self
        for touch in touches:
            if (index := turn.taker(touch)) is not None:
                turn = turn.touched(index, touch.site)
        return turn.advance(board, None)

    def complete(self, index: int | None = None) -> "Turn":
        """Step ``index`` (default: the current) done whole (OK for a flip or a carry)."""
        index = self.step if index is None else index
        left = list(self.left)
        flipped = left[index] if self.steps[index].action == "flip" else frozenset()
        left[index] = frozenset()
        return replace(self, left=tuple(left), untouched=self.untouched | flipped)

    def advance(self, board: frozenset[str], faces_shown: Callable[[frozenset[str]], bool] | None) -> "Turn":
        """Past every step now done: sensed steps the board shows, touched steps with nothing
        left (on a polarity board the last flip once the faces read right)."""
        turn = self
        while (step := turn.current) is not None:
            if step.sensed:
                finished = not turn.remaining(board)
            elif step.action == "flip" and faces_shown is not None and turn.last_flip():
                finished = faces_shown(step.sites)
            else:
                finished = not turn.left[turn.step]
            if not finished:
                return turn
            turn = replace(turn, step=turn.step + 1)
        return turn

    def skip_to(self, step: int) -> "Turn":
        """The sensors show ``step`` steps done (a sensed run done at once)."""
        return replace(self, step=step) if step > self.step else self

    def steps_left(self) -> tuple[FollowUp, ...]:
        """The steps still to do that the sensors cannot see, each with its sites left."""
        return tuple(
            FollowUp(s.action, self.left[i], s.prompt)
            for i, s in enumerate(self.steps)
            if i >= self.step and not s.sensed and self.left[i]
        )

    def done_touches(self) -> frozenset[str]:
        """The sites whose flip or tap is counted."""
        return frozenset().union(
            *(s.sites - left for s, left in zip(self.steps, self.left) if s.action in TOUCHED)
        )

    def finish_unsensed(self) -> "Turn":
        """Every step left taken as done (the next side began while only flips were left)."""
        flips = (self.left[i] for i in range(self.step, len(self.steps)) if self.steps[i].action == "flip")
        return replace(self, step=len(self.steps), untouched=self.untouched.union(*flips))


@dataclass(frozen=True)
class TurnChoice:
    """Several moves explain the board (they differ by a pick). Steps they all share before
    the pick (flips) come first; a quick touch on a pick site, or the buttons, choose.
    ``deferred``: touches that only a chosen move can count (a passed token flipped before the
    landing is tapped)."""

    turns: tuple[Turn, ...]
    board: frozenset[str]
    highlight: int = 0
    deferred: tuple[Touch, ...] = ()

    @property
    def known(self) -> Turn | None:
        """The chosen turn (:meth:`sole`), once one is left with its pick made."""
        if len(self.turns) == 1 and self.turns[0].pick_index() is None:
            return self.sole()
        return None

    def sole(self) -> Turn:
        """The one turn left, its pick made (a move with one landing needs no tap) and the
        touches kept for it counted."""
        turn = self.turns[0]
        pick = turn.pick_index()
        turn = turn if pick is None else turn.complete(pick)
        for touch in self.deferred:
            index = turn.taker(touch)
            if index is not None:
                turn = turn.touched(index, touch.site)
        return turn

    @property
    def shared(self) -> FollowUp | None:
        """The current step when every turn has the same one and it is a flip not yet done."""
        steps = {(t.current, t.left[t.step] if t.current else None) for t in self.turns}
        if len(steps) != 1:
            return None
        ((step, left),) = steps
        return step if step is not None and step.action == "flip" and left else None

    def touch(self, touch: Touch, early: bool = False) -> tuple["TurnChoice", str | None]:
        """Count ``touch``: a shared flip for every turn, else a pick (the turns picking that
        site stay), else kept for the chosen turn; what it was taken as. An ``early`` touch of
        a token of the position, made before the move showed, counts only if it lasted
        KNOCK_MS (shorter, the hand knocked it on its way). A pick by such a touch, or by a
        token's second touch, that other moves would take as a turn on their pawn's way is
        marked (``Turn.early``): a tap on one of their landings may still choose them."""
        if early and touch.held < KNOCK_MS:
            return self, None
        takers = [t.taker(touch) for t in self.turns]
        picks = [i for i, t in zip(takers, self.turns) if i is not None and t.steps[i].action == "pick"]
        if all(i is not None and self._before_pick(t, i) for i, t in zip(takers, self.turns)):
            turns = tuple(t.touched(cast(int, i), touch.site) for i, t in zip(takers, self.turns))
            return replace(self, turns=turns), "flip"
        if picks:
            again = any(touch.site in t.done_touches() for t in self.turns)
            doubt = (
                touch.site if (early or again) and len(picks) < sum(i is not None for i in takers) else None
            )
            turns = tuple(
                replace(t.touched(i, touch.site), early=doubt)
                for i, t in zip(takers, self.turns)
                if i is not None and t.steps[i].action == "pick"
            )
            return replace(self, turns=turns, highlight=0), "pick"
        if any(i is not None for i in takers):
            return replace(self, deferred=self.deferred + (touch,)), None
        return self, None

    @staticmethod
    def _before_pick(turn: Turn, index: int) -> bool:
        pick = turn.pick_index()
        return turn.steps[index].action == "flip" and (pick is None or index < pick)

    def chosen(self) -> Turn:
        """The highlighted turn, chosen by OK: its shared flip (a flip made without lifting)
        or its pick made."""
        turn = self.turns[self.highlight]
        if self.shared is not None:
            return turn.complete()
        pick = turn.pick_index()
        return turn if pick is None else turn.complete(pick)

    def ok(self) -> "TurnChoice":
        """OK: the shared flip done (made without lifting), else the highlighted move chosen."""
        if self.shared is not None:
            return replace(self, turns=tuple(t.complete() for t in self.turns))
        return replace(self, turns=(self.chosen(),), highlight=0)

    def next(self) -> "TurnChoice":
        """BACK: show the next candidate."""
        return replace(self, highlight=(self.highlight + 1) % len(self.turns))

    @property
    def sites(self) -> frozenset[str]:
        """The sites lit now: the shared flip's left, else the picks."""
        shared = self.shared
        if shared is not None:
            return self.turns[0].left[self.turns[0].step]
        return frozenset().union(*(t.left[i] for t in self.turns if (i := t.pick_index()) is not None))

    @property
    def touchable(self) -> frozenset[str]:
        """Every site a touch may still count on (lifted meanwhile, it is a touch under way)."""
        return frozenset().union(*(s for t in self.turns for s in t.left))

    @property
    def handled(self) -> frozenset[str]:
        """Every token the moves' flips and picks name, counted or not (lifted meanwhile, it is
        in the hand: a touch under way, or one already counted lifted again)."""
        return frozenset().union(*(s.sites for t in self.turns for s in t.steps if s.action in TOUCHED))

    @property
    def action(self) -> Literal["flip", "pick"]:
        return "flip" if self.shared is not None else "pick"

    def lights(self) -> dict[str, LightKind]:
        """Site -> light kind: the shared flip's tokens left, else the picks (the shown one fast)."""
        if self.shared is not None:
            return dict.fromkeys(self.sites, "flip")
        lit: dict[str, LightKind] = dict.fromkeys(self.sites, "pick")
        turn = self.turns[self.highlight]
        pick = turn.pick_index()
        lit.update(dict.fromkeys(turn.left[pick] if pick is not None else (), "picked"))
        return lit

    def instruction(self, notation: Callable[[Any], str]) -> str:
        """What the players are asked, in words: flip the shared tokens, or tap one of the
        lit sites (OK takes the one shown, BACK shows the next).

        The shown candidate is named by its site ("OK: h4"), or by its move when no site
        tells the candidates apart."""
        shared = self.shared
        if shared is not None:
            return words(shared, self.sites)
        turn = self.turns[self.highlight]
        pick = turn.pick_index()
        if pick is None:
            return _("OK: {move}, BACK: next").format(move=notation(turn.move))
        ask = words(turn.steps[pick], self.sites)
        shown = _("OK: {move}, BACK: next").format(move=named(by_name(turn.left[pick])))
        return f"{ask} · {shown}"


def undo_steps(
    played: GameState[Any],
    back: GameState[Any],
    unturned: frozenset[str] = frozenset(),
    stood: dict[str, str] | None = None,
) -> tuple[FollowUp, ...]:
    """What a takeback from ``played`` to ``back`` must undo that no occupancy shows: the
    tokens to turn back (faces that differ on sites both positions hold) and the unseen pieces
    to carry back (:meth:`GameState.markers`). The board may not show ``played`` yet:
    ``unturned`` are its tokens still on their earlier face (a flip asked, not made), ``stood``
    where its unseen pieces still stand (side -> site; a carry asked, not made).

    >>> from engines import new_game
    >>> back = new_game("antipode"); played = back.play(str(back.legal_moves()[0]))
    >>> [(s.action, sorted(s.sites), s.prompt) for s in undo_steps(played, back)]
    [('flip', ['a1'], ''), ('carry', ['a1'], 'Blue pawn: a1 back to e1')]
    >>> undo_steps(played, back, frozenset({"a1"}), {"blue": "e1"})
    ()
    """
    was, now = played.faces(), back.faces()
    turned = frozenset(site for site, face in now.items() if was.get(site, face) != face)
    turned ^= unturned & frozenset(now)
    steps = [FollowUp("flip", turned)] if turned else []
    stood = stood or markers(played)
    carried = [
        (stood[side], site, side) for site, side in back.markers().items() if stood.get(side, site) != site
    ]
    if carried:  # every unseen piece at once: the next side's first action ends the step
        words = "; ".join(
            _("{side} {piece}: {off} back to {site}").format(
                side=_(side), piece=_(back.UNSEEN), off=off, site=site
            )
            for off, site, side in carried
        )
        steps.append(FollowUp("carry", frozenset(c[0] for c in carried), capital(words)))
    return tuple(steps)


def markers(state: GameState[Any]) -> dict[str, str]:
    """Where each side's unseen piece stands (side -> site)."""
    return {side: site for site, side in state.markers().items()}


def directions(state: GameState[Any], move: Any) -> str:
    """What the players do to carry out ``move`` for an opponent away from the board, in words:
    the pieces to move, take off and place, and any unseen piece that goes elsewhere.

    >>> from engines import new_game
    >>> state = new_game("antipode")
    >>> directions(state, state.parse_move("b1:a1"))
    'place b1, blue pawn to a1'
    >>> grid = new_game("anti-grid", 6)
    >>> directions(grid, grid.parse_move("c1-c5"))
    'move c1 to c5'
    >>> phalanx = new_game("phalanx")
    >>> directions(phalanx, phalanx.parse_move("d2se-d4se"))
    'move d2se, e2sw to d4se, e4sw'
    """
    real = state.realisations(move)[0]
    order = {site.label: i for i, site in enumerate(state.sites())}
    emptied, filled = (sorted(sites, key=order.__getitem__) for sites in (real.emptied, real.filled))
    if emptied and len(emptied) == len(filled):  # a piece (of one site or more) moved
        parts = [_("move {sites} to {targets}").format(sites=named(emptied), targets=named(filled))]
    else:
        parts = [_("take {sites} off").format(sites=named(emptied))] if emptied else []
        parts += [_("place {sites}").format(sites=named(filled))] if filled else []
    was = state.markers()
    parts += [
        _("{side} {piece} to {site}").format(side=_(side), piece=_(state.UNSEEN), site=site)
        for site, side in state.apply(move).markers().items()
        if was.get(site) != side
    ]
    return ", ".join(parts) or "OK"


def named(sites: Iterable[str], most: int = 3, either: bool = False) -> str:
    """Sites by name, the first ``most`` of many with how many more; ``either``: as
    alternatives.

    >>> named(["c1"]), named(["a1", "b2", "c3", "d4", "e5"])
    ('c1', 'a1, b2, c3 and 2 more')
    >>> named(["h4", "h5"], either=True), named(["a1", "b2", "c3", "d4"], either=True)
    ('h4 or h5', 'one of a1, b2, c3 and 1 more')
    """
    sites = list(sites)
    if either and len(sites) == 2:
        return _("{site} or {other}").format(site=sites[0], other=sites[1])
    if len(sites) <= most:
        listed = ", ".join(sites)
    else:
        more = len(sites) - most
        listed = ngettext("{sites} and {n} more", "{sites} and {n} more", more).format(
            sites=", ".join(sites[:most]), n=more
        )
    return _("one of {sites}").format(sites=listed) if either and len(sites) > 2 else listed


class Sync(NamedTuple):
    """The board differs from what the game expects: what to put back and take off (to reach
    ``aim``, the board of a legal move that fewer changes reach, e.g. a piece knocked off while
    moving; else the position), and why (the engine's reason for refusing what it looks like,
    or what the board waits for).

    >>> Sync(("c1",), (), aim=frozenset({"c1", "c2"})).words()
    'Put c1 back'
    >>> Sync(("c1",), ("d4", "e5")).words()
    'Put c1 back, take d4, e5 off'
    >>> refused = Sync((), ("*B2",), "B2 already holds a Trirod")
    >>> refused.words(), refused.fix()
    ('B2 already holds a Trirod', 'Take *B2 off')
    """

    missing: tuple[str, ...]
    extra: tuple[str, ...]
    reason: str | None = None
    aim: frozenset[str] | None = None
    waiting: bool = False

    def words(self) -> str:
        """The reason, else the pieces to put back and to take off, by name."""
        return reword(self.reason) if self.reason else fix_words(self.missing, self.extra)

    def fix(self) -> str | None:
        """What to do about a refusal: the pieces to put back and to take off (None while an
        answer is awaited, or when the words say it already)."""
        if not self.reason or self.waiting or not (self.missing or self.extra):
            return None
        return fix_words(self.missing, self.extra)


def fix_words(missing: Iterable[str], extra: Iterable[str]) -> str:
    """ "Put c1 back, take c11 off" for the sites to fill and to empty, in the given order;
    many sites are counted, the first two named.

    >>> fix_words([], ["a1"])
    'Take a1 off'
    >>> fix_words(["a1", "a2", "a3", "a4", "a5"], [])
    'Put 5 back (a1, a2…)'
    """
    missing, extra = list(missing), list(extra)
    parts = [_fix(FIX_WORDS[0], missing)] if missing else []
    parts += [_fix(FIX_WORDS[1], extra)] if extra else []
    return capital(", ".join(parts))


#: How :func:`fix_words` words the pieces to put back and to take off: the sites named, or
#: counted (the first two named).
FIX_WORDS = (
    (N_("put {sites} back"), N_("put {n} back ({sites}…)")),
    (N_("take {sites} off"), N_("take {n} off ({sites}…)")),
)


def _fix(wording: tuple[str, str], sites: list[str]) -> str:
    if len(sites) <= 3:
        return _(wording[0]).format(sites=named(sites))
    return _(wording[1]).format(n=len(sites), sites=", ".join(sites[:2]))


def capital(text: str) -> str:
    """``text`` with its first letter a capital, unless it begins with a site's name (a word
    with a digit: some languages name the sites first).

    >>> capital("put c1 back"), capital("d6nw zurücksetzen")
    ('Put c1 back', 'd6nw zurücksetzen')
    """
    return text if _site_first(text) else text[:1].upper() + text[1:]


def small(text: str) -> str:
    """``text`` with its first letter small, unless it begins with a site's name.

    >>> small("Put c1 back"), small("B2* weg")
    ('put c1 back', 'B2* weg')
    """
    return text if _site_first(text) else text[:1].lower() + text[1:]


def _site_first(text: str) -> bool:
    return re.match(r"\S*\d", text) is not None


class Pending(NamedTuple):
    """A move chosen elsewhere (a computer, a remote board) that the players carry out: the
    sites to empty and to fill are lit, ``say`` is shown, and only a board that shows it counts.

    >>> p = Pending(None, "B2*", Realisation(frozenset(), frozenset({"B2*"})), "Computer plays B2*")
    >>> p.done(frozenset(), frozenset({"B2*"})), p.done(frozenset(), frozenset())
    (0, None)
    >>> p.stray(frozenset(), frozenset({"A1*"}))
    (frozenset(), frozenset({'A1*'}))
    """

    move: object
    text: str
    real: Realisation
    say: str

    def done(self, before: frozenset[str], board: frozenset[str]) -> int | None:
        """How many sensed follow-ups are done when ``board`` shows the move (None: it does not)."""
        return self.real.reaches(before, board)

    def lights(self, board: frozenset[str]) -> dict[str, LightKind]:
        """Site -> light kind: the sites still to empty and to fill."""
        return {
            **dict.fromkeys(self.real.emptied & board, "empty"),
            **dict.fromkeys(self.real.filled - board, "fill"),
        }

    def stray(self, before: frozenset[str], board: frozenset[str]) -> tuple[frozenset[str], frozenset[str]]:
        """(missing, extra): the changes that are no part of the move (both empty: in progress)."""
        after = self.real.board_after(before)
        return (before & after) - board, board - (before | after)
