"""Advice that never peeks: what to play from what the player has seen.

The thoughtful search (:mod:`~solitaire_core.solver.stock`) knows where every face-down
card lies and the stock's order; its answer to "what should I play now?" would use cards
the player cannot see. This module answers from the player's view alone, by hindsight
optimisation (Bjarnason, Fern and Tadepalli, "Lower Bounding Klondike Solitaire with
Monte-Carlo Planning", ICAPS 2009): deal the unseen cards at random into the unseen
places many times, solve each such arrangement thoughtfully, and play the move that
keeps most of them won: the moves that start most of the solutions found, and a deal
from the stock, are each played in every arrangement that was won and searched again
(:func:`_count_wins`). Where no arrangement is won within the budget, each
search still says how far it got (:attr:`SolveResult.best_line`: the line to the
position with the most cards up and face-down cards turned), and the first move of the
lines that get furthest, summed over the arrangements, is played: the hindsight value of
a search that could not finish, rather than a rule of thumb about the view (not where the
stock is dealt in rows onto the columns: :func:`honest_hint`).

The unseen places are the face-down cards of the columns, the stock (its order; but for
its top card where that lies face up, Pyramid's ``stock.top_plays``; and not once the
waste has been turned over into it: every card of it has then been seen, in order) and
the face-down cards of a reserve (Canfield). The unseen cards are the cards of those places,
shuffled among them; nothing else of the position changes, so every arrangement looks
the same to the player, and the advice depends on the seed and the view only (a test
checks two positions that differ in hidden cards alone get the same advice).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import attrs

from ..cards import Card, card_code
from ..moves import Move, PileKind
from ..state import GameState


def unseen_cards(state: GameState) -> list[Card]:
    """The cards the player cannot see in ``state``: face-down column cards (bottom
    first, column by column), then the stock (bottom first), then the reserve's
    face-down cards (bottom first)."""
    out = [
        c
        for i, col in enumerate(state.columns)
        for j, c in enumerate(col)
        if state.is_face_down(i, j)
    ]
    out += _unseen_stock(state)
    out += [c for j, c in enumerate(state.reserve) if state.is_reserve_face_down(j)]
    return out


def _unseen_stock(state: GameState) -> tuple[Card, ...]:
    """The stock's cards the player has not seen: all, or all but a face-up top card,
    until the waste is first turned over; none after that. A redeal turns the waste,
    whose cards all showed as they were dealt, back into the stock in an order the
    player has watched, so from then on the stock's order is part of the view (a player
    remembers it, as the hindsight player of Bjarnason, Fern and Tadepalli does). Without
    that memory, every pass through the stock was planned as if its order were new: the
    advice "deal, then play the card that comes up" never met the card it planned for,
    and the advice went round the stock."""
    if state.rules.stock_deal == "waste" and state.rounds > 0:
        return ()
    if state.rules.stock_top_plays:
        return state.stock[:-1]
    return state.stock


def arrangement(state: GameState, rng: random.Random) -> GameState:
    """``state`` with its unseen cards (:func:`unseen_cards`) shuffled among the unseen
    places: a position the player cannot tell from ``state``.

    :param rng: the random source (a seeded :class:`random.Random` repeats the same
        arrangements).
    """
    # Sorted first, so the arrangement depends on which cards are unseen (what the view
    # says), never on where they truly lie.
    cards = sorted(unseen_cards(state), key=card_code)
    rng.shuffle(cards)
    it = iter(cards)
    columns = tuple(
        tuple(next(it) if state.is_face_down(i, j) else c for j, c in enumerate(col))
        for i, col in enumerate(state.columns)
    )
    stock = tuple(next(it) for _ in _unseen_stock(state)) + state.stock[len(_unseen_stock(state)) :]
    reserve = tuple(
        next(it) if state.is_reserve_face_down(j) else c for j, c in enumerate(state.reserve)
    )
    return attrs.evolve(state, columns=columns, stock=stock, reserve=reserve)


@attrs.frozen
class HonestAdvice:
    """What :func:`honest_hint` found.

    :param move: the move to play (``None`` when no arrangement was won within the
        budget: then nothing is advised).
    :param wins: how many arrangements a solution starting with ``move`` won.
    :param samples: how many arrangements were solved.
    :param votes: per plan (:func:`_plan`: the first move, with the stock's turns before
        the move they lead to; its first move alone while the stock is unseen), the
        arrangements it keeps won when played in each (:func:`_count_wins`), the
        advised one first; with ``rivals=0``, the arrangements whose solution it started.
    :param fallback: when no arrangement was won: why ``move`` was advised, ``""``
        otherwise: :data:`FURTHEST` where the searches' furthest positions chose it (then
        ``leads`` counts them), else the reason :func:`progress_move` gives for a move
        chosen from the view alone (e.g. ``"this move turns a face-down card up"``).
    :param leads: when no arrangement was won: in how many arrangements the line to the
        furthest position the search reached started with ``move``'s plan.
    :param cancelled: the search was stopped before every arrangement was solved.
    :param plan: the moves of the plan voted for (``move`` first; more than one where it
        turns the stock before the move it leads to), as the first arrangement that
        voted for it played them; ``()`` when no arrangement was won.
    """

    move: Move | None
    wins: int
    samples: int
    votes: tuple[tuple[str, int], ...] = ()
    fallback: str = ""
    cancelled: bool = False
    plan: tuple[Move, ...] = ()
    leads: int = 0

    @property
    def text(self) -> str:
        """The advice in words for the player: "wins in 38 of 50 ways the hidden cards
        may lie"."""
        none = f"no win found in {self.samples} ways the hidden cards may lie"
        if self.move is None:
            return none + ": no move is advised"
        if self.fallback:
            return f"{none}; {self.fallback}"
        return f"wins in {self.wins} of {self.samples} ways the hidden cards may lie"


FURTHEST = "this move leads furthest toward a win"
""":attr:`HonestAdvice.fallback` when no arrangement was won and the move was chosen by
the positions the searches got furthest to."""


def progress_move(state: GameState) -> tuple[Move | None, str]:
    """A move chosen from the view alone, for when no arrangement of the hidden cards is
    won within the budget: the first legal move that sends a card to a foundation, else
    one that turns a face-down card up, else one that empties a column, else the stock's
    deal, else the waste's turn over into the stock; ``(None, "")`` when there is none of
    these.

    :return: the move and why it was chosen, in words for the player.
    """
    from ..rules import apply, legal_moves

    moves = legal_moves(state)
    for move in moves:
        if move.target.kind is PileKind.FOUNDATION and move.source.kind is not PileKind.FOUNDATION:
            return move, "this move sends a card up"
    columns = [m for m in moves if m.source.kind is PileKind.TABLEAU]
    for move in columns:
        if apply(state, move).face_down_cards < state.face_down_cards:
            return move, "this move turns a face-down card up"
    for move in columns:
        whole = move.count == len(state.pile(move.source))
        if whole and move.target.kind is PileKind.TABLEAU and state.pile(move.target):
            return move, "this move empties a column"
    for move in moves:
        if move.source.kind is PileKind.STOCK:
            return move, "this move deals from the stock"
    for move in moves:
        if move.target.kind is PileKind.STOCK:
            return move, "this move turns the waste over"
    return None, ""


def honest_hint(
    state: GameState,
    *,
    samples: int = 20,
    max_states: int = 1000,
    seed: int = 0,
    autoplay: str | None = None,
    cancel: Callable[[], bool] | None = None,
    rivals: int = 2,
) -> HonestAdvice:
    """Advise a move in ``state`` from what the player can see (module docstring).

    :param samples: arrangements of the unseen cards to solve (>= 1); a position without
        unseen cards is solved once, exactly.
    :param max_states: the positions each arrangement's search may store (>= 1).
    :param seed: the seed of the arrangements (same seed and view, same advice).
    :param autoplay: the autoplay policy the game is played with (default the
        variant's).
    :param cancel: returns True to stop (checked between and within the searches); the
        advice then has ``cancelled`` set and no move.
    :param rivals: how many of the plans most voted for are then played in every won
        arrangement and counted where it stays won (:func:`_count_wins`); 0 advises the
        plan most voted for as it stands.
    :raises ValueError: when ``samples`` or ``max_states`` is below 1, or ``rivals``
        below 0.
    """
    from . import Verdict, solve

    if type(samples) is not int or samples < 1:
        raise ValueError(f"samples: expected a whole number >= 1, got {samples!r}")
    if type(max_states) is not int or max_states < 1:
        raise ValueError(f"max_states: expected a whole number >= 1, got {max_states!r}")
    if type(rivals) is not int or rivals < 0:
        raise ValueError(f"rivals: expected a whole number >= 0, got {rivals!r}")
    rng = random.Random(seed)
    hidden = bool(unseen_cards(state))
    # The search's score counts cards left in the stock against a position. Dealt onto a
    # waste they stay counted there, so a line gets further only by what it plays; dealt
    # in rows onto the columns (Spider, Gypsy) they stop counting, so the furthest lines
    # start by dealing every row, a move a player keeps for when nothing else is left.
    # There the rule of thumb of progress_move decides instead.
    furthest_counts = state.rules.stock_deal != "row"
    rounds = samples if hidden else 1
    votes: Counter[str] = Counter()
    first: dict[str, tuple[Move, ...]] = {}
    # the arrangements won, with the plan each search's solution started with
    won: list[tuple[GameState, str]] = []
    # where no arrangement is won: per plan, the gain of the furthest positions it led to
    gains: Counter[str] = Counter()
    leads: Counter[str] = Counter()
    for done in range(rounds):
        if cancel is not None and cancel():
            return HonestAdvice(None, 0, done, cancelled=True)
        position = arrangement(state, rng) if hidden else state
        # Unchecked (solve's ``check``): only the verdict and the first moves count here, and
        # the move advised is played through the session's own rules.
        result = solve(
            position, max_states=max_states, autoplay=autoplay, cancel=cancel, check=False
        )
        if result.verdict is Verdict.WINNABLE and result.moves:
            plan = _plan(result.moves)
            votes[plan] += 1
            first.setdefault(plan, result.moves[: plan.count(" ") + 1])
            won.append((position, plan))
        elif result.best_line and furthest_counts:
            plan = _plan(result.best_line)
            gains[plan] += result.best_gain
            leads[plan] += 1
            first.setdefault(plan, result.best_line[: plan.count(" ") + 1])
    if cancel is not None and cancel():
        return HonestAdvice(None, 0, rounds, cancelled=True)
    if not votes and gains:
        # The most gained over the arrangements; among equals the plan met first.
        ahead = max(gains, key=lambda text: gains[text])
        line = first[ahead]
        return HonestAdvice(line[0], 0, rounds, fallback=FURTHEST, plan=line, leads=leads[ahead])
    if not votes:
        chosen, why = progress_move(state) if hidden else (None, "")
        return HonestAdvice(chosen, 0, rounds, fallback=why)
    if rivals == 0 or not hidden:
        # Most wins first; among equals the plan met first (the seed decides, not the cards).
        best = max(votes, key=lambda text: votes[text])
        line = first[best]
        return HonestAdvice(line[0], votes[best], rounds, tuple(votes.most_common()), plan=line)
    counted = _count_wins(state, won, votes, first, rivals, max_states, autoplay, cancel)
    if counted is None:
        return HonestAdvice(None, 0, rounds, cancelled=True)
    (line, wins), table = counted
    return HonestAdvice(line[0], wins, rounds, table, plan=line)


def _count_wins(
    state: GameState,
    won: list[tuple[GameState, str]],
    votes: Counter[str],
    first: dict[str, tuple[Move, ...]],
    rivals: int,
    max_states: int,
    autoplay: str | None,
    cancel: Callable[[], bool] | None,
) -> tuple[tuple[tuple[Move, ...], int], tuple[tuple[str, int], ...]] | None:
    """The second stage of :func:`honest_hint`: each candidate is played in every
    arrangement that was won, and counted where that arrangement is still won after it.

    The first stage credits a won arrangement to the one plan its search happened to
    find first, though other moves may win it too; a move that wins in five
    arrangements and loses the other five could so out-vote a move that keeps all ten
    won. The candidates are the ``rivals`` plans with most votes, and, while the stock
    is unseen, a deal from it (which loses nothing where the stock may be gone through
    again, and shows a card). While the stock is unseen a plan counts by its first move
    alone: the card a turn of the stock brings up differs between the arrangements, so
    only that first move is the same action in each. Arrangements not won in the first
    stage are not searched again: a move cannot win what was proved lost, and what the
    budget left undecided it seldom wins.

    :return: ((the moves of the plan with most wins, its wins), every candidate with
        its wins, most first), or ``None`` when ``cancel`` stopped it. Among equal
        counts the deal goes first (it risks nothing and shows a card), then the plan
        with more first-stage votes, then the one met first.
    """
    from ..errors import IllegalMoveError
    from ..rules import stock_moves
    from ..session import play_move
    from . import Verdict, solve

    unseen_stock = bool(_unseen_stock(state))

    def key(plan: str) -> str:
        return plan.split(" ", 1)[0] if unseen_stock else plan

    tally: Counter[str] = Counter()
    lines: dict[str, tuple[Move, ...]] = {}
    for plan, count in votes.most_common():
        tally[key(plan)] += count
        lines.setdefault(key(plan), first[plan][:1] if unseen_stock else first[plan])
    ranked = [k for k, _ in tally.most_common()][:rivals]
    deal = stock_moves(state)[:1] if unseen_stock else []
    if deal and str(deal[0]) not in ranked:
        ranked.append(str(deal[0]))
        lines[str(deal[0])] = (deal[0],)
    policy = autoplay or state.rules.autoplay
    wins: Counter[str] = Counter()
    for candidate in ranked:
        for position, plan in won:
            if cancel is not None and cancel():
                return None
            if key(plan) == candidate:
                wins[candidate] += 1
                continue
            after = position
            try:
                for move in lines[candidate]:
                    after = play_move(after, move, policy)[2]
            except IllegalMoveError:
                continue
            result = solve(
                after, max_states=max_states, autoplay=autoplay, cancel=cancel, check=False
            )
            wins[candidate] += after.is_won or result.verdict is Verdict.WINNABLE

    met = {candidate: i for i, candidate in enumerate(ranked)}

    def order(candidate: str) -> tuple[int, bool, int, int]:
        is_deal = bool(deal) and candidate == str(deal[0])
        return (-wins[candidate], not is_deal, -tally[candidate], met[candidate])

    ranked.sort(key=order)
    table = tuple((c, wins[c]) for c in ranked)
    return (lines[ranked[0]], wins[ranked[0]]), table


def continuation(advice: HonestAdvice, state: GameState) -> HonestAdvice | None:
    """The advice for ``state``, the position after ``advice.move`` was played, without
    solving again: the rest of ``advice.plan`` where it goes on through a stock whose
    order the player has seen (:func:`unseen_cards` holds no stock card) and its next move
    is legal; ``None`` otherwise (then ask :func:`honest_hint`).

    Solving again after each turn of the stock may find another win first and plan
    other turns, so a player who asked after every turn could go round the stock
    without ever playing the card a plan dealt for; following the plan through plays it.
    """
    from ..rules import is_legal

    rest = advice.plan[1:]
    if not rest or _unseen_stock(state) or not is_legal(state, rest[0]):
        return None
    return attrs.evolve(advice, move=rest[0], plan=rest)


def _plan(line: tuple[Move, ...]) -> str:
    """What a winning line is counted as in the vote: its first move, or, where it starts
    by turning the stock, those turns together with the move they lead to (in move
    notation, space-separated: ``"s>w s>w w>t3"``). Counted by its first move alone,
    "deal" would gather every line that deals before it plays, however many deals each
    wants and whatever it then plays: it out-voted each single move, the player dealt, and
    the next advice, from one deal further on, said the same, round the stock and back
    (Klondike Draw 3 deals 1-6 were all lost so in the honest benchmark)."""
    plan = []
    for move in line:
        plan.append(str(move))
        if PileKind.STOCK not in (move.source.kind, move.target.kind):
            break
    return " ".join(plan)
