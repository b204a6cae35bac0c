"""Monte Carlo tree search with GRAVE (generalised rapid action value estimation).

Every node keeps, besides each move's own wins and visits, all-moves-as-first statistics: how
the games went in which the side to move played that move anywhere later. A move with few visits
of its own borrows them from the nearest ancestor with at least :data:`REF` visits (Cazenave's
GRAVE), which lets a few hundred playouts find the shape of a connection game. A playout is
whatever ``GameState.playout`` makes of a new leaf: a random game to its end by default (Antipod
fills its board at once), Antipode's connection distances at once. Where a game finds wins in
one quickly, the moves ranked by their visits go to ``threats.pick`` (forks, and moves that
allow none) with as much work again.
"""

from __future__ import annotations

import random
from typing import Callable, Generic, Mapping

from engines.ai import threats
from engines.ai.profile import SearchProfile, profile_of
from engines.core import DRAW, GameState
from engines.core.state import M, Verdict, side_to_move

COUNTS = "playouts"
#: Visits a node needs before its AMAF statistics are used below it.
REF = 40
#: GRAVE's bias: how fast a move's own statistics take over from the AMAF ones.
BIAS = 1e-4
#: A node lists at most this many moves (drawn at random beyond; Antipalos Phase Two).
WIDTH = 400
#: Root moves tried, best first, for one that leaves no immediate loss.
SAFETY_TRIES = 12
#: Plies a playout runs before it is scored as a draw.
PLAYOUT_PLIES = 250


class Node(Generic[M]):
    """A position in the tree: per move, own (n, w) and AMAF (an, aw) statistics for the side
    to move here."""

    __slots__ = ("state", "side", "moves", "children", "n", "w", "an", "aw", "visits")

    def __init__(self, state: GameState[M], rng: random.Random) -> None:
        self.state = state
        self.side = state.to_move
        self.moves: list[M] = candidate_moves(state, rng) if self.side else []
        self.children: dict[M, Node[M]] = {}
        self.n: dict[M, int] = {}
        self.w: dict[M, float] = {}
        self.an: dict[M, int] = {}
        self.aw: dict[M, float] = {}
        self.visits = 0


def candidate_moves(state: GameState[M], rng: random.Random, width: int = WIDTH) -> list[M]:
    """The moves a node considers, in a seeded random order (ties go to the first): all of
    them, or ``width`` drawn at random where there are more."""
    if state.legal_count() <= width:
        moves = list(state.legal_moves())
        rng.shuffle(moves)
        return moves
    return list(dict.fromkeys(state.random_moves(rng, width)))


def select(node: Node[M], ref: Node[M]) -> M | None:
    """The move with the best blend of own and AMAF values (AMAF from ``ref``)."""
    best: M | None = None
    best_value = -1.0
    n, w, an, aw = node.n, node.w, ref.an, ref.aw
    for move in node.moves:
        amaf_n = an.get(move, 0)
        amaf = aw[move] / amaf_n if amaf_n else 1.0
        own_n = n.get(move, 0)
        if own_n:
            beta = amaf_n / (amaf_n + own_n + BIAS * amaf_n * own_n)
            value = (1.0 - beta) * w[move] / own_n + beta * amaf
        else:
            value = amaf
        if value > best_value:
            best, best_value = move, value
    return best


def reward(winner: Verdict, side: str) -> float:
    """What a playout's result is worth to ``side``: 1 won, 0.5 drawn or unknown, 0 lost, or
    the share a graded result (side -> value) gives it."""
    if isinstance(winner, Mapping):
        return winner[side]
    if winner == side:
        return 1.0
    return 0.5 if winner in (None, DRAW) else 0.0


def search(
    state: GameState[M],
    budget: int,
    rng: random.Random,
    stop: Callable[[], bool],
    scan: int,
    profile: SearchProfile | None = None,
    root: Node[M] | None = None,
) -> tuple[M, int, int]:
    """(move, playouts, positions made) of a search spending about ``budget`` positions,
    charging ``scan`` tenths of a position per move a selection weighs (``profile``: the
    game's own unless given; ``root``: a tree at ``state`` to grow on, else a new one)."""
    profile = profile or profile_of(state)
    root = root or Node(state, rng)
    if len(root.moves) == 1:
        return root.moves[0], 0, 0
    win = state.winning_move(root.moves)
    spent = profile.check_cost(root.moves)
    if win is not None:
        return win, 0, spent
    playouts, grown = grow(root, budget - spent, rng, stop, scan)
    spent += grown
    ranked = sorted(root.moves, key=lambda m: (root.n.get(m, 0), root.w.get(m, 0.0)), reverse=True)
    if profile.win_check_cost is not None:  # wins in one are cheap: forks, and none allowed
        tactics = threats.Budget(budget, profile.win_check_cost, stop)
        return threats.pick(state, ranked, tactics), playouts, spent + tactics.spent
    best, checked = safe(state, ranked, rng, profile)
    return best, playouts, spent + checked


def move_work(budget: int, profile: SearchProfile) -> int:
    """The work a move's :func:`search` counts on ``budget``, about: the tree's, and as much
    again for the tactics after it where the game has them (``threats.pick``).

    >>> from engines import new_game
    >>> move_work(100, profile_of(new_game("antipode"))), move_work(100, profile_of(new_game("antipod")))
    (200, 100)
    """
    return 2 * budget if profile.win_check_cost is not None else budget


def grow(
    root: Node[M],
    budget: int,
    rng: random.Random,
    stop: Callable[[], bool],
    scan: int,
) -> tuple[int, int]:
    """(playouts, positions made) of descents from ``root`` until ``budget`` positions are
    made or ``stop()`` (asked every 16 playouts)."""
    playouts = spent = 0
    while spent < budget and not (playouts & 15 == 0 and playouts and stop()):
        spent += max(1, iterate(root, rng, scan))  # a tree of finished games would cost nothing
        playouts += 1
    return playouts, spent


def estimate(state: GameState[M], rng: random.Random, playouts: int) -> tuple[float, int]:
    """(the share of a win ``playouts`` playouts give the side to move, positions made).

    >>> from engines import new_game
    >>> estimate(new_game("antipode"), random.Random(1), 4)
    (0.5, 0)
    """
    side, share, made = side_to_move(state), 0.0, 0
    for _ in range(playouts):
        winner, tail = state.playout(rng, PLAYOUT_PLIES)
        share += reward(winner, side)
        made += len(tail)
    return share / playouts, made


def sample(
    state: GameState[M],
    rng: random.Random,
    count: int,
    profile: SearchProfile | None = None,
) -> tuple[M, int, int]:
    """(move, leaves, positions made) of a gentle level's loose move, a one-ply look at a few
    moves: a move that wins at once, else the best by its leaf's score (``playout``) of
    ``count`` moves drawn among those after which the opponent cannot win at once (with a
    ``count`` of 1 any of them, unscored; the first move drawn if none is). ``profile``: the
    game's own unless given.

    >>> from engines import new_game
    >>> state = new_game("antipode")
    >>> move, leaves, made = sample(state, random.Random(1), 4)
    >>> move in state.legal_moves(), leaves, made >= leaves
    (True, 4, True)
    """
    profile = profile or profile_of(state)
    moves = candidate_moves(state, rng)
    side, win = side_to_move(state), state.winning_move(moves)
    made = profile.check_cost(moves)
    if win is not None:
        return win, 0, made
    best, best_score, leaves = moves[0], -1.0, 0
    for move in moves:
        child, cost, handed = hands_over(state, move, rng, profile)
        made += cost
        if handed or child.outcome() is not None:  # a win at once was played above
            continue
        if count == 1:
            return move, 0, made
        winner, tail = child.playout(rng, PLAYOUT_PLIES)
        made += len(tail)
        leaves += 1
        if (score := reward(winner, side)) > best_score:
            best, best_score = move, score
        if leaves == count:
            break
    return best, leaves, made


def safe(
    state: GameState[M],
    ranked: list[M],
    rng: random.Random,
    profile: SearchProfile,
) -> tuple[M, int]:
    """The first of ``ranked`` after which the opponent cannot win at once (the first move if
    none is), and the positions made to find out. Few playouts can miss a one-move loss; this
    check cannot (within the :data:`WIDTH` replies a wide position lists)."""
    made = 0
    for move in ranked[:SAFETY_TRIES]:
        _, cost, handed = hands_over(state, move, rng, profile)
        made += cost
        if not handed:
            return move, made
    return ranked[0], made


def hands_over(
    state: GameState[M],
    move: M,
    rng: random.Random,
    profile: SearchProfile,
) -> tuple[GameState[M], int, bool]:
    """(the position after ``move``, positions made, whether the opponent can then win at
    once: looked for among the :data:`WIDTH` replies a wide position lists)."""
    child = state.apply(move)
    if child.to_move in (None, state.to_move):  # the game is over, or the mover goes again
        return child, 1, False
    replies = candidate_moves(child, rng)
    return child, 1 + profile.check_cost(replies), child.winning_move(replies) is not None


def iterate(root: Node[M], rng: random.Random, scan: int) -> int:
    """One descent, expansion, playout and update; returns the work done (positions made, plus
    ``scan`` tenths of a position per move its selections weighed)."""
    path: list[Node[M]] = []
    played: list[tuple[str, M]] = []
    node, ref = root, root
    made = 0
    while True:
        path.append(node)
        if node.side is None:
            break
        if node.visits > REF:
            ref = node
        move = select(node, ref)
        assert move is not None  # a game going on has moves
        made += len(node.moves) * scan // 10
        played.append((node.side, move))
        child = node.children.get(move)
        if child is None:
            child = node.children[move] = Node(node.state.apply(move), rng)
            made += 1
            node = child
            path.append(node)
            break
        node = child
    outcome = node.state.outcome()
    if outcome is not None:
        update(path, played, outcome.winner)
        return made
    winner, tail = node.state.playout(rng, PLAYOUT_PLIES)
    played += tail
    update(path, played, winner)
    return made + len(tail)


def update(path: list[Node[M]], played: list[tuple[str, M]], winner: Verdict) -> None:
    """Back the result up the path: own statistics for the move taken at each node, AMAF for
    every move its side played from there on."""
    later: dict[str, set[M]] = {}
    tail = len(played)
    for depth in range(len(path) - 1, -1, -1):
        node = path[depth]
        node.visits += 1
        if node.side is None or depth >= len(played):
            continue
        for side, move in played[depth:tail]:
            later.setdefault(side, set()).add(move)
        tail = depth
        score = reward(winner, node.side)
        move = played[depth][1]
        node.n[move] = node.n.get(move, 0) + 1
        node.w[move] = node.w.get(move, 0.0) + score
        an, aw = node.an, node.aw
        for seen in later.get(node.side, ()):
            an[seen] = an.get(seen, 0) + 1
            aw[seen] = aw.get(seen, 0.0) + score
