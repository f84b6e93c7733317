"""AppStore: settings, autosave and resume, named saves and statistics (no display)."""

from __future__ import annotations

import attrs
import pytest
from solitaire_tk.shell.persist import AppStore, ReplayError

from solitaire_core.errors import SolitaireError
from solitaire_core.moves import PileKind
from solitaire_core.persistence import PersistenceError, SavedGame, write_save
from solitaire_core.plugins import get_variant
from solitaire_core.rules import legal_moves
from solitaire_core.session import Session

pytestmark = pytest.mark.usefixtures("solitaire_home")


@pytest.fixture
def store(tmp_path):
    app = AppStore(tmp_path / "home")
    yield app
    app.close()


def cheating_session() -> Session:
    """A Seahaven game with normal moves, one move only Cheat allows, and undone moves.

    Fills the free cells from the tableau, then (in Cheat) moves a run longer than
    free cells + 1, plays on, and undoes the last two moves.
    """
    definition = get_variant("seahaven")
    for deal in range(1, 60):
        session = Session.new(definition, deal)
        cheat_move = None
        for _ in range(6):
            normal = set(legal_moves(session.state))
            extra = set(legal_moves(session.state, cheat=True)) - normal
            if extra:
                cheat_move = min(extra, key=str)
                break
            to_cell = sorted(
                (
                    m
                    for m in normal
                    if m.source.kind is PileKind.TABLEAU and m.target.kind is PileKind.CELL
                ),
                key=str,
            )
            if not to_cell:
                break
            session.play(to_cell[0])
        if cheat_move is None:
            continue
        session.set_cheat(True)
        session.play(cheat_move)
        session.set_cheat(False)
        for _ in range(3):
            moves = sorted(legal_moves(session.state), key=str)
            if moves:
                session.play(moves[0])
        session.undo()
        session.undo()
        assert session.cheats > 0 and session.can_redo
        return session
    raise AssertionError("no deal with a cheat move found")


def same_game(a: Session, b: Session) -> None:
    assert b.rules.id == a.rules.id and b.rules.options == a.rules.options
    assert b.deal_number == a.deal_number
    assert b.state == a.state
    assert b.move_texts() == a.move_texts()
    assert [str(t.move) for t in b.redo_stack] == [str(t.move) for t in a.redo_stack]
    assert (b.cheat, b.cheats, b.used_undo) == (a.cheat, a.cheats, a.used_undo)


def test_autosave_then_resume_gives_the_same_game_and_redo_stack(tmp_path):
    session = cheating_session()
    first = AppStore(tmp_path / "home")
    assert first.offer_resume() is None
    assert first.autosave(session, 93.5, used_hint=True) is None
    first.close()

    second = AppStore(tmp_path / "home")
    assert second.warnings == []
    saved = second.offer_resume()
    assert saved is not None
    assert (saved.elapsed_seconds, saved.used_hint) == (93.5, True)
    resumed = second.session_from_save(saved)
    same_game(session, resumed)
    # Redo plays the undone moves again, in the same order.
    while session.can_redo:
        assert str(resumed.redo().move) == str(session.redo().move)
        assert resumed.state == session.state
    assert not resumed.can_redo
    second.close()


def test_resume_in_cheat_mode_keeps_cheat_on(store):
    session = cheating_session()
    session.set_cheat(True)
    store.autosave(session, 1.0)
    resumed = store.session_from_save(store.offer_resume())
    assert resumed.cheat is True and resumed.cheats == session.cheats


def test_a_corrupt_autosave_is_reported_and_kept_aside(tmp_path):
    data = tmp_path / "home" / "data"
    data.mkdir(parents=True)
    (data / "autosave.json").write_text('{"format": "towers-solitaire-save", "moves": [', "utf-8")
    app = AppStore(tmp_path / "home")
    assert app.offer_resume() is None
    assert len(app.warnings) == 1
    assert "could not be restored" in app.warnings[0]
    assert not (data / "autosave.json").exists()
    kept = list(data.glob("autosave.json.corrupt*"))
    assert len(kept) == 1 and kept[0].read_text("utf-8").startswith('{"format"')
    app.close()


def test_clear_autosave_forgets_the_game(store, tmp_path):
    store.autosave(Session.new(get_variant("freecell"), 3), 2.0)
    assert store.autosave_path().exists()
    assert store.clear_autosave() is None
    assert not store.autosave_path().exists() and store.offer_resume() is None
    assert AppStore(tmp_path / "home").offer_resume() is None
    assert store.clear_autosave() is None  # nothing to delete is fine


def test_a_save_of_an_uninstalled_variant_is_refused_in_plain_words(store):
    saved = SavedGame(variant="no-such-game", options={}, deal=1, moves=())
    with pytest.raises(ReplayError, match="'no-such-game', which is not installed") as info:
        store.session_from_save(saved)
    assert isinstance(info.value, SolitaireError) and isinstance(info.value, PersistenceError)


def test_an_illegal_move_on_replay_names_the_move_and_keeps_the_file(store, tmp_path):
    path = tmp_path / "bad.json"
    write_save(SavedGame(variant="seahaven", options={}, deal=1, moves=("t1>t2x5",)), path)
    before = path.read_bytes()
    with pytest.raises(ReplayError, match=r"move 1 \(t1>t2x5\) is not allowed"):
        store.open(path)
    assert path.read_bytes() == before


def test_a_bad_option_or_deal_in_a_save_is_refused(store):
    with pytest.raises(ReplayError, match="cannot be set up"):
        store.session_from_save(
            SavedGame(variant="sea-towers", options={"empty_columns": "never"}, deal=1, moves=())
        )
    with pytest.raises(ReplayError, match="deal number"):
        store.session_from_save(SavedGame(variant="seahaven", options={}, deal=0, moves=()))


def test_save_as_and_open_round_trip_with_options(store, tmp_path):
    definition = get_variant("sea-towers")
    session = Session.new(definition, 11, {"empty_columns": "any"})
    for _ in range(4):
        session.play(sorted(legal_moves(session.state), key=str)[0])
    path = tmp_path / "named" / "my game.json"
    store.save_as(path, session, 61.25)
    game = store.open(path)
    assert game.elapsed_seconds == 61.25
    assert game.used_hint is False
    assert game.session.rules.option_dict == {"empty_columns": "any"}
    same_game(session, game.session)
    store.save_as(path, session, 70.0, used_hint=True)
    assert store.open(path).used_hint is True


def test_open_of_a_missing_file_raises_persistence_error(store, tmp_path):
    with pytest.raises(PersistenceError, match="does not exist"):
        store.open(tmp_path / "nothing.json")


def test_settings_are_saved_and_loaded(tmp_path):
    app = AppStore(tmp_path / "home")
    changed = attrs.evolve(
        app.settings, last_variant="sea-towers", last_options={"empty_columns": "any"}
    )
    assert app.save_settings(changed) is None
    app.close()
    again = AppStore(tmp_path / "home")
    assert again.settings.last_variant == "sea-towers"
    assert again.settings.last_options == {"empty_columns": "any"}
    again.close()


def test_a_broken_settings_file_gives_defaults_and_a_warning(tmp_path):
    config = tmp_path / "home" / "config"
    config.mkdir(parents=True)
    (config / "settings.toml").write_text("last_variant = [unclosed", "utf-8")
    app = AppStore(tmp_path / "home")
    assert app.settings.last_variant is None
    assert any("settings file" in w for w in app.warnings)
    app.close()


def test_the_default_home_follows_solitaire_home(tmp_path):
    app = AppStore()
    app.autosave(Session.new(get_variant("seahaven"), 2), 0.0)
    assert app.autosave_path().is_relative_to(tmp_path)
    assert app.autosave_path().exists()
    app.close()


def test_a_finished_game_is_recorded_once(store):
    session = cheating_session()
    assert store.record(session, won=False, elapsed_seconds=40.0, used_hint=False)
    assert not store.record(session, won=False, elapsed_seconds=41.0, used_hint=False)
    (entry,) = store.stats.summary()
    assert (entry.variant, entry.played, entry.lost) == ("seahaven", 1, 1)


def test_an_untouched_abandoned_game_is_not_recorded(store):
    session = Session.new(get_variant("freecell"), 9)
    assert not store.record(session, won=False, elapsed_seconds=3.0, used_hint=False)
    assert store.stats.summary() == []


def test_a_restarted_game_counts_again_after_forget(store):
    session = Session.new(get_variant("freecell"), 9)
    session.play(sorted(legal_moves(session.state), key=str)[0])
    assert store.record(session, won=False, elapsed_seconds=3.0, used_hint=False)
    session.restart()
    store.forget(session)
    session.redo()
    assert store.record(session, won=False, elapsed_seconds=5.0, used_hint=False)
    (entry,) = store.stats.summary()
    assert entry.lost == 2


def test_a_cheated_win_is_counted_apart(store):
    session = cheating_session()
    store.record(session, won=True, elapsed_seconds=100.0, used_hint=False)
    (entry,) = store.stats.summary()
    assert (entry.won, entry.cheat_wins) == (0, 1)


def test_the_casino_bank_is_carried_from_game_to_game_and_across_a_restart(tmp_path):
    store = AppStore(tmp_path)
    first = Session.new(get_variant("casino-klondike"), 1)
    first.play("s>w")  # the 2♠ goes up: three cards up, $15 - $52
    assert first.score == -37
    assert store.record(first, won=False, elapsed_seconds=30.0, used_hint=False)
    second = Session.new(get_variant("casino-klondike"), 2)
    second.play("s>w")
    assert store.record(second, won=False, elapsed_seconds=30.0, used_hint=False)
    bank = -37 + second.score
    assert store.stats.bank("casino-klondike") == bank
    store.close()
    store = AppStore(tmp_path)  # the program started again
    assert store.stats.bank("casino-klondike") == bank
    (entry,) = store.stats.summary()
    assert (entry.scoring, entry.bank, entry.best_score) == (
        "vegas-cumulative",
        bank,
        max(-37, second.score),
    )
    store.close()


def test_a_game_without_a_bank_records_its_score(store):
    game = Session.new(get_variant("klondike"), 1)
    game.play("s>w")
    assert store.record(game, won=False, elapsed_seconds=3.0, used_hint=False)
    (entry,) = store.stats.summary()
    assert (entry.scoring, entry.best_score, entry.bank) == ("standard", 40, None)
