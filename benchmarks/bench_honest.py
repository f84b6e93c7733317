"""Honest play, measured: deals played to the end by advice that never peeks.

Each deal is played from its start (with the variant's autoplay) by
:func:`solitaire_core.solver.honest.honest_hint` alone: at every step the unseen cards
are dealt at random into the unseen places ``--samples`` times, each arrangement is
solved thoughtfully within ``--max-states`` positions, and the move that wins most often
is played (a plan that turns a stock already seen before the move it leads to is
followed through, :func:`~solitaire_core.solver.honest.continuation`, as the table's
demo does); when no arrangement is won, the move whose lines got furthest in the
searches, else a move of progress in sight (the hint's own fallbacks), else the stock is
dealt (or turned over) if it can be, as a player would. A game is lost when nothing of
these is left, when a
position comes back ``--repeats`` times (the advice goes round in circles, say through
the stock), or after ``--max-moves`` moves. Prints the win rate with its 95% Wilson
interval and the CPU per game; ``--out`` writes the rows as JSON after every deal, and a
run given the same file and settings again plays only the deals not in it yet.

Run::

    python benchmarks/bench_honest.py klondike-draw-3 --first 1 --last 20 \
        --samples 10 --max-states 400

Published figures for Klondike draw 3 played without peeking (docs/winnability.md): a
human expert 36.6% +-2.8 (Yan et al. 2005), UCT 36.97% +-1.92 (Bjarnason, Fern and
Tadepalli 2009).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter
from pathlib import Path

from tqdm import tqdm

from solitaire_core.moves import Move
from solitaire_core.plugins import get_registry
from solitaire_core.rules import canonical_key, stock_moves
from solitaire_core.session import Session
from solitaire_core.solver.honest import HonestAdvice, continuation, honest_hint
from solitaire_core.solver.survey import wilson_interval
from solitaire_core.state import GameState


def play(
    variant: str,
    number: int,
    samples: int,
    max_states: int,
    history: list[tuple[GameState, Move, str]] | None = None,
    rivals: int = 2,
    **limits: int,
) -> dict:
    """Play deal ``number`` of ``variant`` by honest advice; the row as a dict (``won``,
    ``moves``, ``why`` it ended, ``cpu_s``).

    :param history: where given, each move is appended as (position before it, the move,
        the advice in words); the game's last position is appended with ``None`` as move.
    :param limits: ``max_moves`` and ``repeats`` (see the module docstring).
    """
    rules = get_registry().get(variant).resolve()
    session = Session(rules, number)
    seen: Counter[object] = Counter()
    advice: HonestAdvice | None = None
    started = time.process_time()
    why = "won"
    while not session.is_won:
        key = canonical_key(session.state)
        seen[key] += 1
        if seen[key] > limits["repeats"]:
            why = "went round in circles"
            break
        if session.moves >= limits["max_moves"]:
            why = "move limit"
            break
        advice = (advice and continuation(advice, session.state)) or honest_hint(
            session.state,
            samples=samples,
            max_states=max_states,
            seed=number + session.moves,
            rivals=rivals,
        )
        move = advice.move
        if move is None:
            # No arrangement won within the budget: turn the stock, as a player would,
            # and ask again; with no stock move left the game is lost.
            move = next(iter(stock_moves(session.state)), None)
        if move is None:
            why = "no arrangement won"
            break
        if history is not None:
            said = advice.text if advice.move is not None else "no advice: the stock is turned"
            history.append((session.state, move, said))
        session.play(move)
    if history is not None:
        history.append((session.state, None, ""))  # type: ignore[arg-type]
    return {
        "deal": number,
        "won": session.is_won,
        "moves": session.moves,
        "why": why,
        "cpu_s": round(time.process_time() - started, 2),
    }


def losing_move(
    history: list[tuple[GameState, Move, str]], max_states: int = 1_000_000
) -> tuple[int, Move, str, str] | None:
    """Where a game that the thoughtful search wins from its start was lost: the first
    move after which the game's position is no longer won by it (a position that is lost
    stays lost, so the positions of the game are won up to that move and not after it,
    and halving finds it). ``(move number from 0, the move, the advice in words, the
    verdict after it)``; ``None`` where the start is not won or the last position is
    not lost within ``max_states`` positions a search."""
    from solitaire_core.solver import stock

    def verdict(state: GameState) -> str:
        policy = state.rules.autoplay
        return stock.explore(state, policy=policy, max_states=max_states)[0]

    if verdict(history[0][0]) != "winnable" or verdict(history[-1][0]) == "winnable":
        return None
    won, lost = 0, len(history) - 1
    while lost - won > 1:
        middle = (won + lost) // 2
        if verdict(history[middle][0]) == "winnable":
            won = middle
        else:
            lost = middle
    state, move, said = history[won]
    return won, move, said, verdict(history[lost][0])


def main(argv: list[str] | None = None) -> int:
    """Command-line entry: plays the deals and prints the win rate."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variant")
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=20)
    parser.add_argument("--samples", type=int, default=10)
    parser.add_argument("--max-states", type=int, default=400)
    parser.add_argument(
        "--rivals",
        type=int,
        default=2,
        help="plans most voted for that are played in every won arrangement and counted "
        "where it stays won (0: the plan most voted for is played)",
    )
    parser.add_argument("--max-moves", type=int, default=400)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", type=Path)
    parser.add_argument(
        "--where-lost",
        action="store_true",
        help="play the deals again and print, for each lost one the thoughtful search wins "
        "from its start, the move after which it no longer does, with the advice given",
    )
    parser.add_argument(
        "--hint-time",
        action="store_true",
        help="time one hint on the first position of each deal instead (the median and "
        "the most CPU seconds), as the game window's hint is asked",
    )
    args = parser.parse_args(argv)
    if args.hint_time:
        rules = get_registry().get(args.variant).resolve()
        times = []
        for n in range(args.first, args.last + 1):
            state = Session(rules, n).state
            started = time.process_time()
            honest_hint(state, samples=args.samples, max_states=args.max_states, seed=n,
                        rivals=args.rivals)  # fmt: skip
            times.append(time.process_time() - started)
        print(
            f"{args.variant} deals {args.first}-{args.last}, one hint on the first position: "
            f"median {statistics.median(times):.2f} s CPU, at most {max(times):.2f} s "
            f"({args.samples} arrangements of {args.max_states} positions, "
            f"{args.rivals} rivals)"
        )
        return 0
    if args.where_lost:
        for n in range(args.first, args.last + 1):
            history: list[tuple[GameState, Move, str]] = []
            row = play(
                args.variant, n, args.samples, args.max_states, history, args.rivals,
                max_moves=args.max_moves, repeats=args.repeats,
            )  # fmt: skip
            found = None if row["won"] else losing_move(history)
            if row["won"] or found is None:
                print(f"#{n}: {'won' if row['won'] else 'lost, not won from its start either'}")
                continue
            k, move, said, after = found
            moves = len(history) - 1
            print(f"#{n}: lost by move {k + 1} of {moves}, {move} ({said}); {after} after it")
        return 0
    modes = ("first", "last", "out", "where_lost", "hint_time")
    settings = {k: v for k, v in vars(args).items() if k not in modes}
    done = _played(args.out, settings)
    wanted = range(args.first, args.last + 1)
    for n in tqdm(wanted, desc=args.variant, unit="deal"):
        if n in done:
            continue
        done[n] = play(
            args.variant,
            n,
            args.samples,
            args.max_states,
            rivals=args.rivals,
            max_moves=args.max_moves,
            repeats=args.repeats,
        )
        if args.out:
            # After every deal, so a long run stopped part way resumes where it stopped.
            rows = [done[k] for k in sorted(done)]
            args.out.write_text(json.dumps({"settings": settings, "rows": rows}, indent=1))
    rows = [done[n] for n in wanted]
    won = sum(r["won"] for r in rows)
    low, high = wilson_interval(won, len(rows))
    cpu = sum(r["cpu_s"] for r in rows)
    print(
        f"{args.variant} deals {args.first}-{args.last}: won {won} of {len(rows)} "
        f"({100 * won / len(rows):.1f}%, 95% interval {100 * low:.1f}-{100 * high:.1f}%), "
        f"{cpu / len(rows):.1f} s CPU a game ({args.samples} arrangements of "
        f"{args.max_states} positions a move)"
    )
    print("endings:", dict(Counter(r["why"] for r in rows)))
    return 0


def _played(out: Path | None, settings: dict) -> dict[int, dict]:
    """The rows already in ``out`` by deal, when it was written with the same
    ``settings`` (variant, arrangements, budgets); an empty dict otherwise.

    :raises SystemExit: when ``out`` holds rows played with other settings (they are
        not mixed: give another file).
    """
    if out is None or not out.exists():
        return {}
    saved = json.loads(out.read_text())
    if saved.get("settings") != settings:
        raise SystemExit(
            f"{out} holds games played with {saved.get('settings')}, not {settings}: "
            "give another --out file"
        )
    return {row["deal"]: row for row in saved["rows"]}


if __name__ == "__main__":
    raise SystemExit(main())
