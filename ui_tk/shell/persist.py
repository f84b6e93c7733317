"""The app's glue over :mod:`solitaire_core.persistence`: settings, autosave, named saves
and statistics, with every problem turned into plain sentences.

:class:`AppStore` loads everything once at start-up and collects what went wrong in
``warnings`` (for one message box); background writes (settings, autosave, statistics)
never raise: they return a sentence describing the problem, or ``None``. Saving and
opening a named game, which the player asked for, raise :class:`PersistenceError`.

A saved game is replayed through :meth:`Session.play <solitaire_core.session.Session.play>`:
the moves made, then the undone ones (``SavedGame.undone``, in the order they were first
played), then one undo per undone move, so the redo stack survives a restart of the
program. :class:`Replay` does it a chunk of moves at a time, so the window can draw a
progress line between chunks of a long game (at most
:data:`~solitaire_core.persistence.saves.MAX_SAVE_MOVES` moves).
"""

from __future__ import annotations

import os
import weakref
from pathlib import Path

import attrs

from solitaire_core.errors import IllegalMoveError, SolitaireError
from solitaire_core.i18n import gettext as _
from solitaire_core.i18n import ngettext
from solitaire_core.persistence import (
    PersistenceError,
    SavedGame,
    Settings,
    StatsStore,
    load_autosave,
    load_settings,
    quarantine,
    read_save,
    save_settings,
    write_save,
)
from solitaire_core.persistence import paths as _paths
from solitaire_core.persistence.locks import AUTOSAVE_SLOTS, AutosaveSlot
from solitaire_core.plugins import Registry, get_registry
from solitaire_core.session import Session
from solitaire_core.variant import VariantDefinition

__all__ = ["REPLAY_CHUNK", "AppStore", "OpenedGame", "Replay", "ReplayError", "saved_game"]

REPLAY_CHUNK = 1_000
"""Moves :meth:`Replay.step` plays by default: 0.02 to 0.13 s of work (FreeCell to
Double FreeCell, measured on a quiet 2-core machine), so the window answers between two."""


class ReplayError(PersistenceError, SolitaireError):
    """A saved game cannot be turned back into a game: its variant is not installed, an
    option or the deal number is not valid, or a move is illegal on replay. The file is
    left untouched."""


def saved_game(
    session: Session,
    elapsed_seconds: float,
    *,
    used_hint: bool = False,
    hints: int = 0,
    demo_played: bool = False,
) -> SavedGame:
    """Describe ``session`` as a :class:`SavedGame`.

    :param elapsed_seconds: play time so far, in seconds (>= 0).
    :param used_hint: a hint was asked for in this game (or the demo played).
    :param hints: the hints counted in this game (>= 0).
    :param demo_played: the demo played a move of this game.
    :return: variant id, chosen options, deal number, the moves made (oldest first), the
        redo stack as ``undone`` (in the order the moves were first played, so the next
        move redo would play comes first), cheat mode, cheats, undo and hint flags, the
        hint count and the demo flag.
    """
    return SavedGame(
        variant=session.rules.id,
        options=dict(session.rules.options),
        deal=session.deal_number,
        moves=tuple(session.move_texts()),
        undone=tuple(str(turn.move) for turn in reversed(session.redo_stack)),
        elapsed_seconds=max(0.0, float(elapsed_seconds)),
        cheat=bool(session.cheat),
        cheats=int(session.cheats),
        used_undo=bool(session.used_undo),
        used_hint=bool(used_hint),
        hints=int(hints),
        demo_played=bool(demo_played),
    )


@attrs.frozen
class OpenedGame:
    """A saved game made playable again (:meth:`AppStore.open`,
    :meth:`AppStore.game_from_save`).

    Attributes: ``session`` (the rebuilt :class:`Session`), ``elapsed_seconds`` (play
    time so far, in seconds), ``used_hint`` (a hint was asked for in this game, so a win
    counts as one with hints), ``hints`` (the hints counted so far), ``demo_played`` (the
    demo played a move: a win is not the player's).
    """

    session: Session
    elapsed_seconds: float
    used_hint: bool
    hints: int = 0
    demo_played: bool = False


class Replay:
    """A saved game being made playable again, a chunk of moves at a time.

    Built by :meth:`AppStore.replay`, which sets up the deal; :meth:`step` plays the next
    moves until it returns ``True``; :meth:`game` is then the playable game. The moves are
    played as :meth:`AppStore.session_from_save` describes.

    :param definition: the saved game's variant; ``saved``: the saved game;
        ``autoplay``: the autoplay policy the player chose, or ``None``.
    :raises ReplayError: the deal cannot be set up (an option or the deal number is not
        valid).

    Attributes: ``saved``, ``total`` (the moves to play: ``moves`` and ``undone``),
    ``done`` (the moves played so far).
    """

    def __init__(
        self, definition: VariantDefinition, saved: SavedGame, *, autoplay: str | None = None
    ) -> None:
        self.saved = saved
        self._name = definition.name
        try:
            self._session = Session.new(
                definition, saved.deal, dict(saved.options), cheat=True, autoplay=autoplay
            )
        except SolitaireError as error:
            raise ReplayError(
                _("The saved game of {name} cannot be set up: {error}.").format(
                    name=definition.name, error=error
                )
            ) from error
        self._played = (*saved.moves, *saved.undone)
        self.total = len(self._played)
        self.done = 0
        self._finished = False

    def step(self, count: int = REPLAY_CHUNK) -> bool:
        """Play the next ``count`` moves (>= 1); whether every move is played now.

        :raises ReplayError: a move is not allowed (its number and the reason are in the
            message); the replay cannot go on then.
        """
        session = self._session
        end = min(self.total, self.done + max(1, count))
        for number in range(self.done + 1, end + 1):
            move = self._played[number - 1]
            try:
                session.play(move)
            except IllegalMoveError as error:
                raise ReplayError(
                    _(
                        "The saved game of {name} (deal {deal}) cannot be replayed: move "
                        "{number} ({move}) is not allowed: {reason}."
                    ).format(
                        name=self._name,
                        deal=self.saved.deal,
                        number=number,
                        move=move,
                        reason=error.reason,
                    )
                ) from error
        self.done = end
        if end < self.total:
            return False
        if not self._finished:
            self._finished = True
            saved = self.saved
            for _undone in saved.undone:
                session.undo()
            session.cheat = saved.cheat
            session.cheats = saved.cheats
            session.ever_cheated = saved.cheat or saved.cheats > 0
            session.used_undo = saved.used_undo
        return True

    @property
    def session(self) -> Session:
        """The rebuilt session, once :meth:`step` returned ``True``.

        :raises RuntimeError: moves are still to be played.
        """
        if not self._finished:
            raise RuntimeError(f"the replay is at move {self.done} of {self.total}")
        return self._session

    def game(self) -> OpenedGame:
        """The playable game with its play time, hint flag and count and demo flag, once
        :meth:`step` returned ``True``.

        :raises RuntimeError: moves are still to be played.
        """
        saved = self.saved
        return OpenedGame(
            self.session, saved.elapsed_seconds, saved.used_hint, saved.hints, saved.demo_played
        )


class AppStore:
    """Settings, the autosave, named saves and statistics for the Tk app.

    :param home: a folder holding everything (``config/settings.toml``,
        ``data/autosave.json``, ``data/stats.sqlite3``, as with ``SOLITAIRE_HOME``);
        ``None`` uses the usual per-user folders (or ``SOLITAIRE_HOME`` when set).
    :param registry: the installed variants (default :func:`get_registry`).

    Attributes: ``settings`` (:class:`Settings`), ``stats`` (:class:`StatsStore`),
    ``warnings`` (sentences about every file that could not be read at start-up; each
    bad file was moved aside and defaults are used), ``registry``.
    """

    def __init__(
        self, home: str | os.PathLike[str] | None = None, *, registry: Registry | None = None
    ) -> None:
        self.registry = registry if registry is not None else get_registry()
        self.warnings: list[str] = []
        self._home = Path(home) if home is not None else None
        self._recorded: weakref.WeakSet[Session] = weakref.WeakSet()
        self.settings, problems = load_settings(self._settings_path())
        self.warnings += problems
        try:
            folder = self._home / "data" if self._home is not None else _paths.data_dir()
        except OSError:
            folder = None
        # This program's own autosave: another running copy keeps its game in its own
        # slot, so neither offers, overwrites nor deletes the other's game in progress.
        self._slot = AutosaveSlot(folder) if folder is not None else None
        if self._slot is not None and self._slot.path is None:
            self._autosave = None
            self.warnings.append(
                ngettext(
                    "{count} copies of the program are running already: the game played in "
                    "this one cannot be kept when it closes (use Save).",
                    "{count} copies of the program are running already: the game played in "
                    "this one cannot be kept when it closes (use Save).",
                    AUTOSAVE_SLOTS,
                ).format(count=AUTOSAVE_SLOTS)
            )
        else:
            self._autosave, problems = load_autosave(self._slot_path())
            self.warnings += problems
        self.stats = StatsStore(self._data_path("stats.sqlite3"))
        self.warnings += self.stats.warnings

    # --- where files live --------------------------------------------------------------

    def _settings_path(self) -> Path | None:
        return self._home / "config" / "settings.toml" if self._home is not None else None

    def _data_path(self, name: str) -> Path | None:
        return self._home / "data" / name if self._home is not None else None

    def autosave_path(self) -> Path:
        """The autosave file.

        :raises OSError: when the data folder cannot be created (default location only).
        """
        slot = self._slot_path()
        if slot is not None:
            return slot
        path = self._data_path("autosave.json")
        return path if path is not None else _paths.data_dir() / "autosave.json"

    def _slot_path(self) -> Path | None:
        return self._slot.path if self._slot is not None else self._data_path("autosave.json")

    def saves_folder(self) -> str:
        """The folder Save as… and Open… start in: ``saves`` in the data folder, created
        if missing; the current folder when it cannot be created."""
        try:
            if self._home is None:
                return str(_paths.saves_dir())
            folder = self._home / "data" / "saves"
            folder.mkdir(parents=True, exist_ok=True)
            return str(folder)
        except OSError:
            return os.getcwd()

    # --- settings ----------------------------------------------------------------------

    def save_settings(self, settings: Settings) -> str | None:
        """Keep ``settings`` as the current settings and write them.

        :return: ``None``, or a sentence saying why they could not be written.
        """
        self.settings = settings
        try:
            save_settings(settings, self._settings_path())
        except PersistenceError as error:
            return str(error)
        return None

    # --- the autosave ------------------------------------------------------------------

    def offer_resume(self) -> SavedGame | None:
        """The game in progress saved when the program last closed, or ``None``."""
        return self._autosave

    def autosave(
        self,
        session: Session,
        elapsed_seconds: float,
        used_hint: bool = False,
        *,
        hints: int = 0,
        demo_played: bool = False,
    ) -> str | None:
        """Save the game in progress as the autosave (atomically; the old one stays whole
        if writing fails).

        :param elapsed_seconds: play time so far, in seconds.
        :param hints: the hints counted in this game; ``demo_played``: the demo played a
            move of it (both restored on resume).
        :return: ``None``, or a sentence saying why it could not be saved.
        """
        game = saved_game(
            session, elapsed_seconds, used_hint=used_hint, hints=hints, demo_played=demo_played
        )
        if self._slot is not None and self._slot.path is None:
            return _("The game is not autosaved: too many copies of the program are running.")
        try:
            write_save(game, self.autosave_path())
        except PersistenceError as error:
            return str(error)
        except OSError as error:
            return _("The game could not be saved: {reason}.").format(
                reason=error.strerror or error
            )
        self._autosave = game
        return None

    def clear_autosave(self) -> str | None:
        """Delete the autosave (the game ended, or was saved under a name).

        :return: ``None`` (also when there was none), or a sentence if it could not be
            deleted.
        """
        self._autosave = None
        if self._slot is not None and self._slot.path is None:
            return None  # the autosave files belong to the other running copies
        try:
            self.autosave_path().unlink(missing_ok=True)
        except OSError as error:
            return _("The autosave could not be deleted: {reason}.").format(
                reason=error.strerror or error
            )
        return None

    def set_aside_autosave(self) -> str:
        """Move the autosave aside (``autosave.json.corrupt-...``) because it cannot be
        replayed (its variant is not installed, a move is illegal, ...): it is kept for the
        player or a later version, never deleted, and no longer offered.

        :return: a sentence saying where it went, or why it could not be moved.
        """
        self._autosave = None
        try:
            moved = quarantine(self.autosave_path())
        except FileNotFoundError:
            return _("The autosave was already gone.")
        except OSError as error:
            return _("The autosave could not be moved aside: {reason}.").format(
                reason=error.strerror or error
            )
        return _("It was moved aside to {name}.").format(name=moved)

    # --- replay ------------------------------------------------------------------------

    def session_from_save(self, saved: SavedGame, *, autoplay: str | None = None) -> Session:
        """Rebuild the game a :class:`SavedGame` describes.

        Replays ``moves`` then ``undone`` through :meth:`Session.play` (in Cheat mode, so
        moves made while cheating replay too), then undoes ``len(undone)`` moves so they
        can be redone; then restores the Cheat setting, the count of cheats and the
        used-undo flag from the save.

        :param autoplay: the autoplay policy the game was played with, when the player
            overrode the variant's (``"off"``, ``"safe"``, ``"all"``).
        :raises ReplayError: (a :class:`PersistenceError` and a :class:`SolitaireError`)
            in plain words when the variant is not installed, an option or the deal
            number is not valid, or a move cannot be replayed. No file is changed.
        """
        replay = self.replay(saved, autoplay=autoplay)
        replay.step(replay.total)
        return replay.session

    def replay(self, saved: SavedGame, *, autoplay: str | None = None) -> Replay:
        """Start replaying ``saved`` (no move played yet; see :class:`Replay`).

        :param autoplay: as for :meth:`session_from_save`.
        :raises ReplayError: the variant is not installed, or an option or the deal number
            is not valid. No file is changed.
        """
        definition = self.registry.variants.get(saved.variant)
        if definition is None:
            installed = ", ".join(sorted(self.registry.variants)) or _("none")
            raise ReplayError(
                _(
                    "The saved game is a game of {variant}, which is not installed "
                    "(installed: {installed})."
                ).format(variant=repr(saved.variant), installed=installed)
            )
        return Replay(definition, saved, autoplay=autoplay)

    # --- named saves -------------------------------------------------------------------

    def save_as(
        self,
        path: str | os.PathLike[str],
        session: Session,
        elapsed: float,
        *,
        used_hint: bool = False,
        hints: int = 0,
        demo_played: bool = False,
    ) -> None:
        """Save the game under a name the player chose.

        :param elapsed: play time so far, in seconds.
        :param hints: the hints counted in this game; ``demo_played``: the demo played a
            move of it.
        :raises PersistenceError: when the file cannot be written (the message says why).
        """
        game = saved_game(
            session, elapsed, used_hint=used_hint, hints=hints, demo_played=demo_played
        )
        write_save(game, path)

    def open(self, path: str | os.PathLike[str], *, autoplay: str | None = None) -> OpenedGame:
        """Open a named saved game.

        :param autoplay: as for :meth:`session_from_save`.
        :return: the rebuilt session with its elapsed play time and whether a hint was
            used (:class:`OpenedGame`).
        :raises PersistenceError: when the file cannot be read or is not a saved game,
            and :class:`ReplayError` when it cannot be replayed (see
            :meth:`session_from_save`). The file is never changed.
        """
        return self.game_from_save(read_save(path), autoplay=autoplay)

    def game_from_save(self, saved: SavedGame, *, autoplay: str | None = None) -> OpenedGame:
        """Rebuild a saved game with what the session does not hold: its play time,
        whether a hint was used and how many, and whether the demo played (for the
        autosave and for :meth:`open`).

        :raises ReplayError: see :meth:`session_from_save`.
        """
        replay = self.replay(saved, autoplay=autoplay)
        replay.step(replay.total)
        return replay.game()

    # --- statistics --------------------------------------------------------------------

    def record(
        self,
        session: Session,
        *,
        won: bool,
        elapsed_seconds: float,
        used_hint: bool,
        hints: int | None = None,
    ) -> bool:
        """Record a finished game in the statistics, once per session.

        A game counts as won or lost; an abandoned game (new deal, another variant, a
        restart) is recorded as lost, but only when the player made a move. A game is
        counted as cheated when at least one cheat was made (``session.cheats > 0``).
        The game's score goes with it, by the variant's scheme (a ``vegas-cumulative``
        score adds to the bank).
        ``hints`` is the number of hints counted in the game (``None``: not known).

        :return: whether the game was recorded now (``False`` when this session was
            already recorded, no move was made, or the database could not be written;
            in the last case the reason is appended to ``warnings``).

        After :meth:`Session.restart` the same session plays the deal anew: call
        :meth:`forget` so that game can be recorded too.
        """
        if session in self._recorded:
            return False
        if not won and not session.history and not session.redo_stack:
            return False
        self._recorded.add(session)
        try:
            self.stats.record_game(
                session.rules.id,
                dict(session.rules.options),
                session.deal_number,
                won=bool(won),
                moves=session.moves,
                seconds=max(0.0, float(elapsed_seconds)),
                used_undo=bool(session.used_undo),
                used_hint=bool(used_hint or hints),
                cheated=session.cheats > 0,
                hints=hints,
                score=session.score,
                scoring=session.rules.scoring,
            )
        except PersistenceError as error:
            self.warnings.append(str(error))
            return False
        return True

    def is_recorded(self, session: Session) -> bool:
        """Whether this session's game is already in the statistics."""
        return session in self._recorded

    def forget(self, session: Session) -> None:
        """Let ``session`` be recorded again (after a restart, it is a new game)."""
        self._recorded.discard(session)

    def close(self) -> None:
        """Close the statistics database and give up this program's autosave slot."""
        self.stats.close()
        if self._slot is not None:
            self._slot.release()
