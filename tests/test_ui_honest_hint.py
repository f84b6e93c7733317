"""The hint and the demo in a game with hidden cards never peek by default: asked with a
real key press (xdotool), the hint says how sure it is from the cards in sight ("wins in
7 of 10 ways the hidden cards may lie"), and with Options > Hints see hidden cards it
answers from the thoughtful solver and says that it knows them. Open games keep their
exact hints (solitaire_core/solver/honest.py, ui_tk/shell/assist.py)."""

from __future__ import annotations

import re
import shutil

import pytest
from solitaire_tk.shell.assist import HONEST_MAX_STATES, HONEST_MAX_STATES_COMPILED
from ui_helpers import open_app, settle, wait_for, xdotool

from solitaire_core.rules import is_legal
from solitaire_core.solver import stock
from solitaire_core.solver.honest import honest_hint

pytestmark = [
    pytest.mark.gui,
    pytest.mark.usefixtures("solitaire_home"),
    pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed"),
]

HONEST = re.compile(r"^Hint: .+ \(wins in (\d+) of 10 ways the hidden cards may lie\)\.$")


def press_hint(root, app) -> None:  # noqa: ANN001
    root.lift()
    app.view.focus_force()
    root.update()
    xdotool("key", "ctrl+h")


def test_the_hint_chooses_from_the_cards_in_sight_and_says_how_sure(root, tmp_path):
    app = open_app(root, tmp_path, "klondike", deal=3)
    settle(app)
    state = app.session.state
    assert not app.assist.peek  # the default
    press_hint(root, app)
    assert wait_for(root, lambda: app.message.startswith(("Hint:", "No hint")), seconds=60)
    match = HONEST.match(app.message)
    assert match, app.message
    assert 1 <= int(match.group(1)) <= 10
    assert app.hints == 1 and app.session.state is state  # shown, not played
    # The advice is the core's, with the table's budget (larger where the compiled search
    # plays the game, as it does Klondike), and a legal move outlined.
    policy = app.session.autoplay_policy
    compiled = not stock.native_unsupported(state.rules, policy)
    budget = HONEST_MAX_STATES_COMPILED if compiled else HONEST_MAX_STATES
    advice = honest_hint(state, samples=10, max_states=budget, autoplay=policy)
    assert app.assist._advice[app.assist._key(state)].move == advice.move
    assert is_legal(state, advice.move)
    assert app.view.hinted == advice.move


def test_with_peeking_allowed_the_hint_says_it_knows_the_hidden_cards(root, tmp_path):
    app = open_app(root, tmp_path, "klondike", deal=3)
    settle(app)
    app.set_hints_peek(True)
    assert app.settings.hints_peek  # saved
    press_hint(root, app)
    assert wait_for(root, lambda: app.message.startswith(("Hint:", "No hint", "Cannot")), 60)
    assert "(the solver knows the face-down cards and the stock)" in app.message
    assert "ways the hidden cards may lie" not in app.message
    app.set_hints_peek(False)
    assert not app.settings.hints_peek


def test_the_demo_plays_from_the_cards_in_sight(root, tmp_path):
    app = open_app(root, tmp_path, "klondike", deal=3)
    settle(app)
    app.assist.demo_step_ms = 50
    app.assist.demo_show_ms = 20
    app.demo()
    assert wait_for(root, lambda: app.session.moves >= 3, seconds=60), app.message
    assert app.assist.demo_running
    assert "from the cards in sight" in app.message or app.message.startswith("Weighing")
    app.assist.stop()
    assert not app.assist.demo_running


def test_an_open_game_keeps_its_exact_hint(root, tmp_path):
    app = open_app(root, tmp_path, "freecell", deal=1)
    settle(app)
    press_hint(root, app)
    assert wait_for(root, lambda: app.message.startswith("Hint:"), seconds=60)
    assert "ways the hidden cards" not in app.message and "knows" not in app.message
