"""Which games a check repeated over every installed game runs on outside the ``slow`` mark.

README.md's test command runs every test, ``slow`` ones included, so each check still covers
every game once. The other Pythons in CI (noxfile.py) run the tests not marked ``slow``: for
checks of the table, the launcher, the editor and the preview, which repeat the same code
over each game, they take the sample below, so their time does not grow with the game count.
The sample holds a game of every family and every layout feature the table draws: cells and
reserves, foundations in groups, dealt foundations, wide and wrapped tableaus, two and three
decks, face-down cards, a stock and a waste (dealt one and three at a time), row deals.
Games installed by plugins (not built in) are always in it.
"""

from __future__ import annotations

import pytest

from solitaire_core.plugins import BUILTIN_PLUGINS, Registry

SAMPLE = frozenset(
    {
        "bisley",  # foundations in two groups, a 4-row tableau
        "chessboard",  # base rank chosen by the first card played
        "der-katzenschwanz",  # Kings start columns, two decks, long columns
        "double-klondike",  # two decks with a stock
        "fan",  # 18 columns wrapped into rows
        "flower-garden",  # a 16-card reserve
        "freecell",
        "gypsy",  # face-down rows, a stock dealt as a row
        "klondike-draw-3",  # the draw-3 fanned waste, redeals
        "penguin",  # foundations dealt, base from the deal
        "pyramid",  # a layout of covered cards, pairs, the stock's top card in play
        "scorpion",  # a row onto some columns only
        "seahaven",
        "spider",  # face down, completed suits
        "stalactites",  # dealt foundations, no building
        "triple-freecell",  # three decks
        "yukon",  # face-up groups
    }
)
"""Built-in game ids every per-game check runs on, with or without ``-m "not slow"``."""


def per_game(registry: Registry) -> list[object]:
    """The ids of every game in ``registry``, sorted, as ``pytest.param`` values: those of
    built-in games outside :data:`SAMPLE` are marked ``slow``; a plugin's games never are.

    :param registry: the registry whose games the check repeats over.
    """
    return [
        pytest.param(i, marks=pytest.mark.slow)
        if d.plugin in BUILTIN_PLUGINS and i not in SAMPLE
        else i
        for i, d in sorted(registry.variants.items())
    ]
