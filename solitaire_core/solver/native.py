"""The solver's compiled core: when it may run, and how it is called.

``_csolver`` is a C extension built by the package's own install (setup.py, marked
optional: without a compiler the install still succeeds, without it). It runs the same
search as the pure-Python engine (best-first, the same moves, autoplay, keys, score and
reductions) from the same compiled :class:`~solitaire_core.solver.tables.Tables`, so it is
as generic as that engine -- within the Rules features it knows. Those are listed here,
explicitly (:data:`SUPPORTED`): a Rules field this module does not list, or a value it does
not list, sends the variant to the Python engine, which says so
(:attr:`SolveResult.note`). So new rule vocabulary works at once, in Python, until the C
side learns it.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from ..variant import AUTOPLAY_POLICIES, Rules
from .engine import Engine, IMove, Position
from .heuristic import default_weights
from .tables import Tables

try:
    from . import _csolver
except ImportError as exc:  # no compiler at install time, or the import is blocked
    _csolver = None  # type: ignore[assignment]
    if importlib.util.find_spec(f"{__package__}._csolver") is None:
        IMPORT_ERROR = (
            "the C extension is not available: it was not built when the package was "
            "installed (no C compiler or Python headers then)"
        )
    else:  # built, but it does not load (another Python's build, a broken file...)
        IMPORT_ERROR = f"the C extension is not available ({exc})"
else:
    IMPORT_ERROR = ""

ENGINES = ("auto", "c", "python")
"""What ``solve(engine=...)`` and ``--engine`` accept: ``auto`` is the fastest available."""

# The C core's limits: _csolver.c's #defines and the checks of its read_game and
# read_pos, one list (tests/test_solver_engines.py reads them back from the C source).
# A variant, a search or a position beyond any of them goes to the Python engine, with
# the reason in SolveResult.note (rules_unsupported, unsupported, position_unsupported);
# the C core's own "out of range" errors are never reached.
MAX_COLUMNS = 24
"""Tableau columns (``MAXCOLS``)."""
MAX_CELLS = 16
"""Cells (``MAXCELLS``)."""
MAX_DECKS = 3
"""Decks, that is copies of each card (``MAXCOPIES``; on the variant's own foundation
piles the suits a pile mixes count as copies too, up to 4 x this)."""
MAX_PILES = 16
"""Foundation piles of the variant's own kind (``MAXPILES``)."""
MAX_PILE_CARDS = 13 * MAX_DECKS
"""Cards one foundation pile holds (``13 * MAXCOPIES``): 39, where the schema allows
``foundations.cards`` up to 104 (one pile for two decks, any suit)."""
MAX_COLUMN_CARDS = 160
"""Cards in one column (``MAXLEN``): more than 3 decks hold, so no game reaches it."""
MAX_KEY_BITS = 8 * 255
"""The longest position key, in bits (``8 * MAXKEY``), at 13 per column, 7 per card,
6 per cell and 18 per foundation pile of the variant's own kind (read_game)."""
MAX_SCORE_RANGE = 4_000_000
"""The widest range of heuristic scores the C core's queue holds (read_game)."""
MAX_WEIGHT = 1000
"""Each heuristic weight is a whole number from -1000 to 1000 (read_game)."""


def _builtin(kind: str) -> Callable[[Rules], str]:
    """A check that a predicate field (``"build"``, ``"run"`` or ``"empty"``) holds a
    function of the rules engine itself (the vocabulary of docs/variant-format.md, wrapping
    and ``below-base`` forms included), not a plugin's Python function, even under a
    built-in's name. The C engine reads the predicates only through the tables compiled
    from them, but a plugin's function may look at more than the two cards' rank and suit
    (or change), so it is searched in Python."""
    fields = {
        "build": ("tableau_build", "build"),
        "run": ("run_rule", "run"),
        "empty": ("empty_rule", "empty_accepts"),
    }
    name_field, function_field = fields[kind]

    def check(rules: Rules) -> str:
        function = getattr(rules, function_field)
        module = getattr(function, "__module__", None) or ""
        if module != "solitaire_core" and not module.startswith("solitaire_core."):
            name = getattr(rules, name_field)
            return f"the {kind} rule {name!r} is a plugin's Python predicate"
        return ""

    return check


def _piles(rules: Rules) -> str:
    """Whether the C engine holds the foundation piles: at most :data:`MAX_PILES`, each
    holding at most :data:`MAX_PILE_CARDS`, and the positions' keys at most
    :data:`MAX_KEY_BITS` long."""
    if rules.standard_foundations:
        piles = 0
    else:
        piles = len(rules.foundation_piles)
        if piles > MAX_PILES:
            return f"{piles} foundation piles (the C engine holds at most {MAX_PILES})"
        most = max(p.capacity for p in rules.foundation_piles)
        if most > MAX_PILE_CARDS:
            return (
                f"a foundation pile of {most} cards (the C engine holds at most "
                f"{MAX_PILE_CARDS} on one pile)"
            )
    bits = rules.columns * 13 + rules.card_count * 7 + rules.cells * 6 + piles * 18
    if bits > MAX_KEY_BITS:
        return f"positions of up to {bits} bits (the C engine's keys hold {MAX_KEY_BITS})"
    return ""


def _is(field: str, allowed: Callable[[Any], bool], what: str) -> Callable[[Rules], str]:
    def check(rules: Rules) -> str:
        value = getattr(rules, field)
        return "" if allowed(value) else f"{field} = {value!r} ({what})"

    return check


def _ignored(rules: Rules) -> str:
    return ""


_LIMITS: dict[str, int] = {"one": 0, "free-cells-plus-one": 1, "supermove": 2, "unlimited": 3}
"""The move limits the C engine plays, each with its code in _csolver.c."""

SUPPORTED: Mapping[str, Callable[[Rules], str]] = {
    # Names and texts: no bearing on play.
    "id": _ignored,
    "name": _ignored,
    "summary": _ignored,
    "build_description": _ignored,
    "empty_description": _ignored,
    "options": _ignored,  # their effect is in the other fields
    "deal": _ignored,  # the solver starts from a position, however it was dealt
    "decks": _is("decks", lambda v: 1 <= v <= MAX_DECKS, f"the C engine plays 1 to {MAX_DECKS}"),
    "columns": _is("columns", lambda v: 1 <= v <= MAX_COLUMNS, f"at most {MAX_COLUMNS}"),
    "cells": _is("cells", lambda v: 0 <= v <= MAX_CELLS, f"at most {MAX_CELLS}"),
    "foundations": _ignored,  # checked with foundation_piles
    "tableau_build": _builtin("build"),
    "build": _ignored,  # checked with tableau_build
    "empty_rule": _builtin("empty"),
    "empty_accepts": _ignored,  # checked with empty_rule
    "move_limit": _is("move_limit", lambda v: v in _LIMITS, "not in the C engine"),
    "foundation_return": _is("foundation_return", lambda v: not v, "no return moves in C"),
    # A run sent up in one move is the same as its cards one by one: the Python engine
    # moves single cards too.
    "foundation_runs": _ignored,
    "autoplay": _is("autoplay", lambda v: v in AUTOPLAY_POLICIES, "unknown"),
    # Rules beyond the classic games'. Wrapping builds and runs apart from the build are in
    # the tables.
    "tableau_wrap": _ignored,  # folded into build and run
    "run_rule": _builtin("run"),
    "run": _ignored,  # checked with run_rule
    "run_description": _ignored,
    "cells_receive": _ignored,  # a reserve: cells that take no card
    "foundation_piles": _piles,
    "complete_suits": _ignored,  # with foundation_piles (not the classic ones then)
}
"""Every Rules field the C engine knows, each with a check returning why a value is not
supported (empty: supported). A field missing here is supported only at its default value
(the behaviour of the games before it existed)."""

_POLICIES = {"off": 0, "safe": 1, "all": 2}
_WEIGHT_ORDER = (
    "left",
    "depth",
    "cells",
    "empty",
    "blockers",
    "unsettled",
    "homeless",
    "loose",
    "noise",
    "crowd",
)


def rules_unsupported(rules: Rules) -> str:
    """Why the C engine cannot play ``rules`` (a sentence), or ``""`` when it can."""
    for field in attrs.fields(type(rules)):
        check = SUPPORTED.get(field.name)
        value = getattr(rules, field.name)
        if check is None:
            default = field.default
            if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
                default = default.factory()
            if default is attrs.NOTHING or value != default:
                return f"the C engine does not know the rule {field.name} = {value!r}"
            continue
        why = check(rules)
        if why:
            return why
    return ""


def unsupported(tables: Tables, policy: str, ideas: Mapping[str, Any]) -> str:
    """Why the C engine cannot run this search (a sentence), or ``""`` when it can.

    :param tables: the compiled variant.
    :param policy: the autoplay policy of the search.
    :param ideas: the switches passed to :func:`~solitaire_core.solver.solve`.
    """
    if _csolver is None:
        return IMPORT_ERROR or "the C extension is not available"
    why = rules_unsupported(tables.rules)
    if why:
        return why
    if tables.rules.decks > 1 and not tables.twins:
        return "the rules tell the two copies of a card apart"
    if policy not in _POLICIES:
        return f"autoplay policy {policy!r}"
    if ideas.get("search", "best-first") != "best-first" or ideas.get("ties", "lifo") != "lifo":
        return "depth-first search and oldest-first ties are measured in Python only"
    if not ideas.get("twins", True):
        return "twins kept apart are measured in Python only"
    weights = {**default_weights(tables), **(ideas.get("weights") or {})}
    if set(weights) != set(_WEIGHT_ORDER) or any(
        type(w) is not int or not -MAX_WEIGHT <= w <= MAX_WEIGHT for w in weights.values()
    ):
        return f"heuristic weights other than whole numbers from -{MAX_WEIGHT} to {MAX_WEIGHT}"
    span = score_range(tables, weights)
    if span > MAX_SCORE_RANGE:
        return f"heuristic scores {span} apart (the C engine's queue holds {MAX_SCORE_RANGE})"
    return ""


def score_range(tables: Tables, weights: Mapping[str, int]) -> int:
    """How far apart the C core's scores of ``tables``' positions can be with ``weights``
    (each term from 0 to its most, as read_game bounds them for its queue).

    :param weights: every term of :data:`_WEIGHT_ORDER`, by name.
    """
    rules = tables.rules
    total = rules.card_count
    most = {
        "left": total,
        "depth": total * total,
        "cells": rules.cells,
        "empty": -rules.columns,
        "blockers": total,
        "unsettled": total,
        "homeless": total,
        "loose": total if weights["loose"] and tables.loose_pairs else 0,
        "noise": 1,
        "crowd": 33,
    }
    terms = [most[name] * weights[name] for name in _WEIGHT_ORDER]
    return sum(t for t in terms if t > 0) - sum(t for t in terms if t < 0)


def position_unsupported(
    start: Position, copies: int, general: bool = False, present: int = (1 << 52) - 1
) -> str:
    """Why the C engine cannot search from ``start`` (a position of the Python engine), or
    ``""``: it needs every card of the game exactly once (``copies`` of each value), in
    play or on a foundation; a hand-made position with cards left out goes to Python.

    :param general: the foundations are the variant's own piles (``start[2]`` holds the
        real piles' cards), not one slot per suit and deck.
    :param present: the values cards stand for, as a bit mask (:attr:`Tables.present_mask`);
        the others (holes) must hold no card."""
    counts = [0] * 52
    for col in start[0]:
        for v in col:
            counts[v] += 1
    for v in start[1]:
        if v < 52:
            counts[v] += 1
    for slot, pile in enumerate(start[2]):
        if general:
            for v in pile:
                counts[v] += 1
            continue
        suit = slot // copies
        for rank in range(len(pile)):
            counts[suit * 13 + rank] += 1
    if any(c != (copies if present >> v & 1 else 0) for v, c in enumerate(counts)):
        return "the position does not hold every card of the game"
    if any(len(col) > MAX_COLUMN_CARDS for col in start[0]):
        return f"a column of more than {MAX_COLUMN_CARDS} cards"
    return ""


@attrs.frozen
class CResult:
    """What the C search found.

    :param moves: the internal moves of a win (real piles, as the Python engine's), or
        ``None`` (no win found, or a budget ran out).
    :param reason: the budget that ran out (``"state budget"``, ``"time budget"``,
        ``"memory budget"``, ``"cancelled"``), or ``""`` when the search finished.
    :param positions: positions stored, including the dead-suit test's small searches.
    :param peak_bytes: the most memory the search held at once (every allocation counted).
    :param stored: positions in the transposition table at the end.
    """

    moves: list[IMove] | None
    reason: str
    positions: int
    peak_bytes: int
    stored: int


_REASONS = ("state budget", "time budget", "cancelled", "memory budget")


def search(
    engine: Engine,
    start: Position,
    weights: Mapping[str, int] | None,
    *,
    suit_check: bool,
    leave_check: bool = False,
    max_states: int,
    max_bytes: int | None,
    timeout: float | None,
    cancel: Callable[[], bool] | None,
    progress: Callable[[int], None] | None,
    seed: int = 0,
) -> CResult:
    """Run the C search from ``start`` (a position of ``engine``, autoplay applied).

    The GIL is released while it runs; ``cancel`` and ``progress`` are called with it held
    every 1,024 positions expanded.

    :param max_bytes: memory budget in bytes (``None``: only ``max_states`` limits it).
    :param seed: the seed of the ``noise`` term (0 to 2**62; used only when its weight
        is above 0).
    :param timeout: seconds from now, or ``None``.
    :raises RuntimeError: when the won line could not be translated back (a bug).
    """
    assert _csolver is not None
    tables = engine.tables
    w = {**default_weights(tables), **(weights or {})}
    spec = (
        engine.ncols,
        engine.ncells,
        engine.copies,
        52,
        _LIMITS[engine.limit],
        _POLICIES[engine.policy],
        int(engine.whole_runs),
        int(engine.whole_runs_empty),
        int(engine.go_home),
        int(engine.king_home),
        min(engine.frozen, 10**9),
        int(engine.ideas.get("canonical", True)),
        int(suit_check),
        int(engine.receive),
        int(engine.general),
        int(engine.complete),
        int(in_real_order(engine)),
        int(engine.general and engine.first_played),
        int(leave_check),
        seed,
        tables.present_mask,
        int(engine.send_up),
        int(engine.aces_need_no_place),
    )
    piles: tuple[tuple[int, int, int, int, int, int, bytes], ...] = ()
    if engine.general:
        # Where the run of piles alike that pile i belongs to ends (Engine.pile_classes).
        run_end = list(range(1, len(engine.pile_cap) + 1))
        for run in engine.pile_classes:
            for i in run:
                run_end[i] = run[-1] + 1
        piles = tuple(
            (
                engine.pile_cap[i],
                engine.pile_start[i],
                int(engine.pile_in_suit[i]),
                sum(1 << j for j in engine.pile_group[i]),
                sum(1 << j for j in engine.pile_alike[i]),
                run_end[i],
                b"".join(m.to_bytes(8, "little") for m in engine.pile_next[i]),
            )
            for i in range(len(engine.pile_cap))
        )
    status, moves, positions, peak, _expanded, stored = _csolver.solve(
        spec,
        b"".join(tables.can_build),
        b"".join(tables.can_run or tables.can_build),
        bytes(int(b) for b in tables.empty_ok),
        piles,
        tuple(w[k] for k in _WEIGHT_ORDER),
        start[0],
        start[1],
        start[2],
        max_states,
        max_bytes or 0,
        -1.0 if timeout is None else max(0.0, timeout),
        cancel,
        progress,
    )
    if status == "translation failed":
        raise RuntimeError("the C search's won line could not be translated to moves")
    reason = status if status in _REASONS else ""
    return CResult(moves, reason, positions, peak, stored)


def in_real_order(engine: Engine) -> bool:
    """Whether the C search must keep positions in their real column and cell order
    (more bytes per position), because the session's autoplay order can decide which card
    goes up; else it works on the sorted (canonical) form, as for the one-deck games.

    The order cannot matter without autoplay, nor with one deck and the classic
    foundations (each card fits one pile). With several decks it can: two exposed copies
    of a card compete for one pile. Not under autoplay "safe" when every card may be built
    on its own predecessor in suit (down in suit, down in any suit: Double Seahaven, Double
    Sea Towers): a card is safe only when every copy of that predecessor is up, so the
    piles of its suit free for it are as many as its copies in play. That fails for the
    Twos where an Ace needs no place (``Rules.aces_need_no_place``: a Two goes up once one
    copy of its Ace is), so there the real order is kept. With the variant's own
    foundation piles autoplay puts a card on the first pile that takes it, and which card goes first
    matters (Bisley: a Six goes to the up row if the Five went first, else to the down
    row). Measured before this check: Triple FreeCell 18, Die Schlange 12 and Der
    Katzenschwanz 4 of deals 1-150 came back "solution failed its check".
    """
    if engine.policy == "off" or (engine.copies == 1 and not engine.general):
        return False
    if engine.general or engine.policy == "all":
        return True
    children = engine.safe_children  # an Ace never counts where it needs no place
    return not all(v - 1 in children[v] for v in range(engine.tables.values) if v % 13)


def available() -> bool:
    """Whether the C extension is importable."""
    return _csolver is not None
