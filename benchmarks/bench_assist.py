"""The solver in the game window (ui_tk/shell/assist.py), in a real Tk window.

1. Hint latency: from Game > Hint (``App.hint``) to the move outlined on the table or
   the verdict in the status bar, with the Tk event loop running as in the game (the
   search runs on a worker thread, polled every 30 ms). Seahaven Towers, seeded random
   deals, at the deal's start and after a few random legal moves (positions a player
   may reach, some of them lost); each position solved fresh (an empty cache), then
   asked again (the kept solution: no search).
2. The window during a search: the longest gap between 10 ms ``after`` callbacks while
   a long search runs (how long the window can go without handling an event).
3. Finding a winnable deal: from New deal with "Winnable deals only" on to the new deal
   on the table, per variant; deals tried.

Usage: ``python benchmarks/bench_assist.py [--positions 60] [--deals 20]``. Without a
``DISPLAY`` a virtual one is started (Xvfb through PyVirtualDisplay).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence

from gui_bench import percentile, x_display


def _report(name: str, values_ms: Sequence[float]) -> None:
    print(
        f"{name:<46} n={len(values_ms):<4} median {statistics.median(values_ms):8.1f} ms   "
        f"p95 {percentile(values_ms, 95):8.1f} ms   max {max(values_ms):8.1f} ms"
    )


def _pump(root, until: Callable[[], bool], limit: float = 120.0) -> None:
    deadline = time.monotonic() + limit
    while not until():
        if time.monotonic() > deadline:
            raise TimeoutError("the window did not finish in time")
        root.update()
        time.sleep(0.001)


def bench(positions: int, deals: int, seed: int = 1) -> None:
    """All three measurements, in one window."""
    import tkinter as tk

    import solitaire_tk.shell.app as app_module
    from solitaire_tk.shell.app import App
    from solitaire_tk.shell.persist import AppStore

    from solitaire_core.plugins import get_registry
    from solitaire_core.rules import legal_moves

    rng = random.Random(seed)
    home = tempfile.mkdtemp(prefix="bench-assist-")
    os.environ["SOLITAIRE_HOME"] = home
    root = tk.Tk()
    root.geometry("1100x760+0+0")
    app = App(root, store=AppStore(home, registry=get_registry()), variant="seahaven",
              deal=1, modal=False)  # fmt: skip
    app.view.animation = False
    app.check_stuck = lambda: False  # type: ignore[method-assign]
    root.update()

    def answered() -> bool:
        return app.assist.search_job is None and (
            app.view.hinted is not None
            or not app.status["message"].cget("text").startswith("Looking")  # fmt: skip
        )

    fresh: dict[str, list[float]] = {"deal start": [], "after random moves": []}
    again: list[float] = []
    verdicts = {"move": 0, "lost": 0, "other": 0}
    for i in range(positions):
        number = rng.randint(1, 32000)
        app.start("seahaven", {}, number)
        for _ in range(0 if i % 2 == 0 else rng.randint(3, 12)):
            moves = legal_moves(app.session.state)
            if not moves or app.session.is_won:
                break
            app.play(rng.choice(moves))
        root.update()
        app.assist.forget()  # solve every position afresh
        started = time.perf_counter()
        app.hint()
        _pump(root, answered)
        fresh["deal start" if i % 2 == 0 else "after random moves"].append(
            (time.perf_counter() - started) * 1000
        )
        if app.view.hinted is not None:
            verdicts["move"] += 1
        elif app.status["message"].cget("text").startswith("Cannot be won"):
            verdicts["lost"] += 1
        else:
            verdicts["other"] += 1
        app.view.clear_highlight()
        started = time.perf_counter()
        app.hint()
        _pump(root, answered)
        again.append((time.perf_counter() - started) * 1000)
    for where, values in fresh.items():
        _report(f"hint, Seahaven, {where}", values)
    _report("hint, Seahaven, asked again (kept)", again)
    print(f"{'':<46} answers: {verdicts}")

    # 2. The event loop during a long search (a deal that takes the solver a while).
    from solitaire_core.solver import solve_deal

    rules = app.session.rules
    hard = next(n for n in range(1, 400) if solve_deal(rules, n, timeout=0.5).reason)
    app.start("seahaven", {}, hard)
    root.update()
    app.assist.hint_budget = {"timeout": 3.0, "max_states": 10_000_000}
    ticks: list[float] = []

    def tick() -> None:
        ticks.append(time.perf_counter())
        if app.assist.search_job is not None:
            root.after(10, tick)

    app.hint()
    root.after(10, tick)
    _pump(root, lambda: app.assist.search_job is None)
    gaps = [(b - a) * 1000 for a, b in zip(ticks, ticks[1:], strict=False)]
    _report(f"after(10) period during a search (deal {hard})", gaps)

    # 3. Winnable deals.
    app.set_winnable_only(True)
    for variant, options in (
        ("seahaven", {}),
        ("sea-towers", {"empty_columns": "any"}),
        ("freecell", {}),
        ("bakers-game", {}),
        ("double-sea-towers", {}),
    ):
        times: list[float] = []
        tries: list[int] = []
        for _ in range(deals):
            drawn: list[int] = []

            def draw(drawn: list[int] = drawn) -> int:
                drawn.append(rng.randint(1, 32000))
                return drawn[-1]

            app_module.random_deal = draw  # type: ignore[assignment]
            old = app.session
            started = time.perf_counter()
            app.start(variant, options, None)
            _pump(root, lambda old=old: app.session is not old)
            times.append((time.perf_counter() - started) * 1000)
            tries.append(len(drawn))
        _report(f"winnable deal, {variant}", times)
        print(f"{'':<46} deals tried: mean {statistics.mean(tries):.2f}, max {max(tries)}")
    app.close(save=False)


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--deals", type=int, default=20)
    args = parser.parse_args(argv)
    with x_display():
        bench(args.positions, args.deals)
    return 0


if __name__ == "__main__":
    sys.exit(main())
