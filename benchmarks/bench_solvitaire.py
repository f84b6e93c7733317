"""Our thoughtful solver against Solvitaire on the same deals: verdict by verdict and
CPU side by side, on the games with a stock (Klondike draw 3, Klondike draw 1,
Canfield).

Solvitaire is Blake and Gent's C++ solver for perfect-information ("thoughtful")
solitaire (github.com/thecharlesblake/Solvitaire): like ours it knows the face-down
cards and the stock's order. For deals ``--first`` to ``--last`` of each variant in
``--games``, the script deals our layout (``solitaire_core.deal.deal``), writes it as
a Solvitaire JSON deal and runs ``solvitaire --type PRESET --classify --timeout MS``
on it, then runs ``solve_deal(rules, n, max_states=--max-states)``. It prints one row
per deal (both verdicts, Solvitaire's states and CPU, our positions and CPU), flags
the deals where both decided and disagree, and a total row per game: won / lost /
undecided and CPU for each. Our CPU is ``time.process_time`` around ``solve_deal``;
Solvitaire's is the child's user + system time from
``resource.getrusage(RUSAGE_CHILDREN)`` (process start and JSON parsing included).

The conversion (checked by hand on deal 1 against Solvitaire's parser and its
stock-to-waste move, ``game_state::make_stock_k_plus_move``): Solvitaire's JSON lists
every pile bottom first, its last card on top, as ours do, so columns, stock (last =
the next card turned), waste (last = the playable card) and Canfield's reserve (last =
the top card) are copied in order. A face-down card is written with a lower-case suit
("9h"), a face-up one upper-case ("9H"); tens are "10". Our deal has already turned
the first card (draw 1) or three cards (draw 3, Canfield) onto the waste; Solvitaire
reads a "waste" list, so the position is handed over as dealt, waste included.
Canfield's base card goes in "foundations" (Solvitaire takes the foundations' base
rank from it).

Solvitaire presets used (``--type`` overrides them for a single game):
``klondike-draw-3`` -> ``klondike``, ``klondike`` -> ``klondike-deal-1``,
``canfield`` -> ``canfield``. Its "klondike" presets let foundation cards return to
play and redeal without limit, as ours do, but move part of a built run only when the
card it uncovers can go to a foundation (``*-arbitrary-built-moves`` lifts that).

Build Solvitaire (Debian 12, its Boost 1.74; the mirror's snapshot is commit 2815238):
drop the googletest download, the unit_tests target and ``-Werror`` from
CMakeLists.txt, then::

    apt-get install -y libboost-all-dev cmake
    cmake -DCMAKE_BUILD_TYPE=RELEASE -Bcmake-build-release -H.
    cmake --build cmake-build-release -j2 -- solvitaire

and run, from this repository's root::

    nice -n 10 python benchmarks/bench_solvitaire.py \\
        --solvitaire /tmp/solvitaire-work/src/cmake-build-release/bin/solvitaire \\
        --games klondike-draw-3,klondike,canfield --first 1 --last 100 \\
        --max-states 20000 --timeout 10

``--out FILE`` (default benchmarks/results/bench_solvitaire.json) receives the rows;
games already in the file and not re-run are kept.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from solitaire_core.deal import deal
from solitaire_core.plugins import get_variant
from solitaire_core.solver import Verdict, solve_deal

PRESETS = {
    "klondike-draw-3": "klondike",
    "klondike": "klondike-deal-1",
    "canfield": "canfield",
    "forty-thieves": "forty-thieves",
    "gypsy": "gypsy",
}
"""Our variant id -> the Solvitaire preset (``--type``) with the nearest rules, or a name
of :data:`CUSTOM_RULES`. Its ``forty-thieves`` is PySolFC's game 13 as ours plays it (ten
columns of four, building down in suit one card at a time, one pass through the stock)."""

CUSTOM_RULES = {
    "klondike-deal-1-arbitrary-built-moves": {
        "tableau piles": {
            "count": 7,
            "build policy": "red-black",
            "spaces policy": "kings",
            "move built group": "yes",
            "diagonal deal": True,
            "face up cards": "top",
        },
        "foundations": {"removable": True},
        "stock": {"size": 24, "deal count": 1, "redeal": True},
    },
    "gypsy": {
        "tableau piles": {
            "count": 8,
            "build policy": "red-black",
            "spaces policy": "any",
            "move built group": "yes",
            "face up cards": "top",
        },
        "foundations": {"removable": True},
        "stock": {"size": 80, "deal type": "tableau piles"},
        "two decks": True,
    },
}
"""Rules Solvitaire has no preset for, passed as ``--custom-rules``: Klondike dealing one
card at a time with any part of a built run moving, as ours plays it (its
``klondike-deal-1`` preset with ``"move built group": "yes"``, the setting of its
``klondike-arbitrary-built-moves`` preset for draw 3); Gypsy as PySolFC's game 1 (two
decks, eight columns building down in alternate colours, any card into an empty column,
each deal of the stock a card onto every column)."""

SOLVITAIRE_VERDICT = {
    "solved": "winnable",
    "unsolvable": "unwinnable",
    "timed-out": "undecided",
    "memory-limit-reached": "undecided",
    "terminated": "undecided",
}
"""Solvitaire's ``--classify`` outcome -> our verdict names."""

DEFAULT_OUT = Path(__file__).parent / "results" / "bench_solvitaire.json"


def card_text(card: Any, face_down: bool = False) -> str:
    """A card as Solvitaire writes it: rank A 2-10 J Q K, suit lower-case if face down."""
    text = str(card)
    rank, suit = text[:-1], text[-1]
    rank = "10" if rank == "T" else rank
    return rank + (suit.lower() if face_down else suit.upper())


def solvitaire_deal(state: Any) -> dict[str, list[Any]]:
    """Our dealt position as a Solvitaire JSON deal (every list bottom first)."""
    doc: dict[str, list[Any]] = {
        "tableau piles": [
            [card_text(c, face_down=i < hidden) for i, c in enumerate(column)]
            for column, hidden in zip(
                state.columns, state.hidden or (0,) * len(state.columns), strict=True
            )
        ],
        "stock": [card_text(c) for c in state.stock],
        "waste": [card_text(c) for c in state.waste],
    }
    foundations = [card_text(c) for pile in state.foundations for c in pile]
    if foundations:
        doc["foundations"] = foundations
    if state.reserve:
        doc["reserve"] = [card_text(c) for c in state.reserve]
    return doc


def find_solvitaire(path: str | None) -> str:
    """The solvitaire executable: ``--solvitaire``, ``$SOLVITAIRE`` or the PATH."""
    candidate = path or os.environ.get("SOLVITAIRE") or shutil.which("solvitaire")
    if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
        return candidate
    sys.exit(
        f"bench_solvitaire: the solvitaire binary was not found ({candidate or 'no path'}):"
        " build it (github.com/thecharlesblake/Solvitaire, cmake) and pass"
        " --solvitaire PATH or set SOLVITAIRE"
    )


def child_cpu() -> float:
    """User + system CPU seconds of the finished children so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_solvitaire(
    exe: str, preset: str, doc: dict[str, list[Any]], timeout_s: float, cache: int | None
) -> dict[str, Any]:
    """Run Solvitaire on one deal: its verdict, states searched, CPU and wall seconds.

    :param preset: one of its presets (``--type``) or a name of :data:`CUSTOM_RULES`
        (``--custom-rules``)."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(doc, handle)
        deal_file = handle.name
    rules_file = None
    if preset in CUSTOM_RULES:
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
            json.dump(CUSTOM_RULES[preset], handle)
            rules_file = handle.name
        chosen = ["--custom-rules", rules_file]
    else:
        chosen = ["--type", preset]
    command = [exe, *chosen, "--classify", "--timeout", str(int(timeout_s * 1000))]
    if cache:
        command += ["--cache-capacity", str(cache)]
    command.append(deal_file)
    before, wall = child_cpu(), time.perf_counter()
    try:
        proc = subprocess.run(
            command, capture_output=True, text=True, timeout=timeout_s * 3 + 30, check=False
        )
        out = proc.stdout
    except subprocess.TimeoutExpired:
        out = ""
    finally:
        os.unlink(deal_file)
        if rules_file:
            os.unlink(rules_file)
    cpu, wall = child_cpu() - before, time.perf_counter() - wall
    # --classify prints ", outcome, ms, states searched, unique states, ..., outcome"
    fields = [f.strip() for f in out.strip().splitlines()[-1].split(",")] if out.strip() else []
    if len(fields) < 4 or fields[1] not in SOLVITAIRE_VERDICT:
        verdict, states, raw = "error", 0, out.strip()[-200:] or "killed"
    else:
        verdict, states, raw = SOLVITAIRE_VERDICT[fields[1]], int(fields[3]), fields[1]
    return {"verdict": verdict, "outcome": raw, "states": states, "cpu_s": cpu, "wall_s": wall}


def run_ours(rules: Any, number: int, max_states: int) -> dict[str, Any]:
    """Our solver on one deal: verdict, positions, CPU seconds."""
    t0 = time.process_time()
    result = solve_deal(rules, number, max_states=max_states)
    return {
        "verdict": result.verdict.value,
        "positions": result.positions,
        "cpu_s": time.process_time() - t0,
    }


def bench_game(variant: str, preset: str, exe: str, args: argparse.Namespace) -> dict[str, Any]:
    """Both solvers on deals --first..--last of one variant; prints the rows."""
    rules = get_variant(variant).resolve()
    print(
        f"\n## {variant} (ours, max_states={args.max_states:,}) vs Solvitaire "
        f"{'--custom-rules' if preset in CUSTOM_RULES else '--type'} {preset} "
        f"(timeout {args.timeout:g} s)\n"
    )
    print("| deal | ours | positions | our CPU s | Solvitaire | states | its CPU s | |")
    print("|---|---|---|---|---|---|---|---|")
    rows = []
    for number in range(args.first, args.last + 1):
        doc = solvitaire_deal(deal(rules, number))
        theirs = run_solvitaire(exe, preset, doc, args.timeout, args.cache_capacity)
        ours = run_ours(rules, number, args.max_states)
        decided = {"winnable", "unwinnable"}
        clash = (
            ours["verdict"] in decided
            and theirs["verdict"] in decided
            and ours["verdict"] != theirs["verdict"]
        )
        rows.append({"deal": number, "ours": ours, "solvitaire": theirs, "disagree": clash})
        print(
            f"| {number} | {ours['verdict']} | {ours['positions']:,} | {ours['cpu_s']:.2f} | "
            f"{theirs['verdict']} | {theirs['states']:,} | {theirs['cpu_s']:.2f} | "
            f"{'DISAGREE' if clash else ''} |",
            flush=True,
        )

    def totals(side: str) -> dict[str, Any]:
        verdicts = [r[side]["verdict"] for r in rows]
        return {
            "won": verdicts.count(Verdict.WINNABLE.value),
            "lost": verdicts.count(Verdict.UNWINNABLE.value),
            "undecided": verdicts.count(Verdict.UNDECIDED.value),
            "errors": verdicts.count("error"),
            "cpu_s": round(sum(r[side]["cpu_s"] for r in rows), 2),
        }

    game = {
        "variant": variant,
        "solvitaire_type": preset,
        "deals": f"{args.first}-{args.last}",
        "max_states": args.max_states,
        "solvitaire_timeout_s": args.timeout,
        "ours": totals("ours"),
        "solvitaire": totals("solvitaire"),
        "disagreements": [r["deal"] for r in rows if r["disagree"]],
        "rows": rows,
    }
    for side in ("ours", "solvitaire"):
        t = game[side]
        print(
            f"\n{variant} {side}: won {t['won']}, lost {t['lost']}, undecided "
            f"{t['undecided']}, errors {t['errors']}, CPU {t['cpu_s']:.1f} s"
        )
    print(f"{variant} disagreements (both decided): {game['disagreements'] or 'none'}")
    return game


def main(argv: list[str] | None = None) -> int:
    """Command-line entry: prints the tables and writes ``--out``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--solvitaire", help="path of the solvitaire executable")
    parser.add_argument("--games", default="klondike-draw-3,klondike,canfield")
    parser.add_argument("--type", help="Solvitaire preset to use (one game only)")
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=100)
    parser.add_argument("--max-states", type=int, default=20000)
    parser.add_argument("--timeout", type=float, default=10.0, help="Solvitaire's, seconds")
    parser.add_argument("--cache-capacity", type=int, help="Solvitaire's state cache bound")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    exe = find_solvitaire(args.solvitaire)
    games = [g for g in args.games.split(",") if g]
    if args.type and len(games) != 1:
        parser.error("--type goes with a single game in --games")
    for variant in games:
        preset = args.type or PRESETS.get(variant)
        if preset is None:
            parser.error(f"no Solvitaire preset known for {variant}: pass --type")
        key = variant if preset == PRESETS.get(variant) else f"{variant}:{preset}"
        game = bench_game(variant, preset, exe, args)
        # re-read just before writing: runs of other games may share the file
        results: dict[str, Any] = {}
        if args.out.exists():
            results = json.loads(args.out.read_text("utf-8"))
        results[key] = game
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(results, indent=1) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
