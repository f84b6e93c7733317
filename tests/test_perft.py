"""Perft golden counts (solitaire_core/testing/data/perft.json): move generation and
autoplay still reach exactly the recorded numbers of move sequences and positions.

After a deliberate rules change, regenerate with
``python -m solitaire_core.testing.perft --update`` and review the diff.
"""

from __future__ import annotations

import pytest

from solitaire_core.plugins import BUILTIN_PLUGINS, get_registry
from solitaire_core.testing import variant_configurations
from solitaire_core.testing.perft import (
    DEALS,
    MAX_SEQUENCES,
    compute_golden,
    dump,
    load_golden,
    main,
    perft,
)

GOLDEN = load_golden()
ENTRIES = GOLDEN["entries"]


def entry_id(entry) -> str:
    options = ",".join(f"{k}={v}" for k, v in entry["options"].items())
    return f"{entry['variant']}[{options}]#{entry['deal']}"


@pytest.mark.slow
@pytest.mark.parametrize("entry", ENTRIES, ids=[entry_id(e) for e in ENTRIES])
def test_perft_counts_match_the_golden_file(entry):
    rules = get_registry().get(entry["variant"]).resolve(entry["options"])
    counts = perft(rules, entry["deal"], len(entry["sequences"]))
    assert list(counts.sequences) == entry["sequences"]
    assert list(counts.positions) == entry["positions"]


def test_golden_file_covers_every_built_in_configuration_and_deal():
    recorded = {(e["variant"], tuple(sorted(e["options"].items())), e["deal"]) for e in ENTRIES}
    for definition in get_registry().variants.values():
        if definition.plugin not in BUILTIN_PLUGINS:
            continue
        for config in variant_configurations(definition):
            for number in DEALS:
                assert (definition.id, config.options, number) in recorded, (
                    f"no perft counts for {config.id} deal {number}: run "
                    "python -m solitaire_core.testing.perft --update"
                )
    assert GOLDEN["depth"] == 3
    for e in ENTRIES:  # shorter only where a level already counts more than MAX_SEQUENCES
        assert len(e["sequences"]) == 3 or e["sequences"][-1] > MAX_SEQUENCES, entry_id(e)


def test_first_level_counts_are_the_number_of_legal_moves_of_the_start(rules_of):
    from solitaire_core.deal import deal
    from solitaire_core.rules import autoplay_moves, legal_moves

    rules = rules_of("seahaven")
    start, _ = autoplay_moves(deal(rules, 1))
    counts = perft(rules, 1, 1)
    assert counts.sequences == (len(legal_moves(start)),)
    # Each Seahaven move gives a different position: no two moves transpose at depth 1.
    assert counts.positions == counts.sequences


def test_update_writes_a_file_the_check_accepts(tmp_path, monkeypatch, capsys):
    import solitaire_core.testing.perft as module

    monkeypatch.setattr(module, "DEALS", (1,))
    monkeypatch.setattr(module, "DEPTH", 1)
    monkeypatch.setattr(module, "compute_golden", lambda: compute_golden((1,), 1))
    target = tmp_path / "perft.json"
    assert main(["--update", "--output", str(target)]) == 0
    first = load_golden(target)["entries"][0]
    recorded = next(e for e in ENTRIES if e["variant"] == first["variant"] and e["deal"] == 1)
    assert first["sequences"] == recorded["sequences"][:1]
    assert main(["--check", "--output", str(target)]) == 0
    text = target.read_text("utf-8")
    assert text == dump(load_golden(target))
    n = first["sequences"][0]
    target.write_text(text.replace(f'"sequences": [{n}]', f'"sequences": [{n + 1}]', 1), "utf-8")
    assert main(["--check", "--output", str(target)]) == 1
    assert f"{first['variant']} {{}} deal 1" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("variant_id", "moves"),
    [
        # The bottom row AS AH 3C 4C 5C TS QH, the waste's 4H, the stock's top AC (face up):
        # the Queen pairs with each Ace, the Ten with the Three, each pair both ways; and
        # the deal.
        (
            "pyramid",
            {"t22>t28", "t28>t22", "t23>t28", "t28>t23", "s>t28", "t28>s", "t24>t27", "t27>t24",
             "s>w"},
        ),
        # The same cards face up on the bottom row, the 4H dealt onto the foundation: the
        # Three and the Five go on it, or the stock deals the next card.
        ("tri-peaks", {"t24>f1", "t26>f1", "s>f1"}),
    ],
)  # fmt: skip
def test_first_level_of_pyramid_and_tri_peaks_deal_1_is_counted_by_hand(variant_id, moves):
    from solitaire_core.deal import deal
    from solitaire_core.rules import legal_moves

    rules = get_registry().get(variant_id).resolve()
    assert {str(m) for m in legal_moves(deal(rules, 1))} == moves
    entry = next(e for e in ENTRIES if e["variant"] == variant_id and e["deal"] == 1)
    assert entry["sequences"][0] == len(moves)
