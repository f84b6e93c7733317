"""The launcher: pick a variant, its options and a deal, then Play.

A :class:`Launcher` is a ``ttk.Frame`` the app packs into its root window. It lists every
installed variant (third-party ones with their plugin's name) grouped by family (the
variant file's top-level ``family`` key: FreeCell type, Seahaven type, ...), with the
games of two or more decks also under "Two-deck", the player's own files also under
"Yours" and the games played last also under "Recent"; a filter box above the list keeps
only the games whose name, id, family or summary holds every word typed, the games whose
name (or id, or alias) is the text typed or starts with it first, under "Best matches"
(:func:`match_rank`). For the selected one it
shows its summary, a picture of a dealt layout (:mod:`solitaire_tk.table.preview`), its options as
radio buttons, a deal-number field (empty means a random deal), the "Winnable deals
only" check box (a random deal is then one the solver proved winnable) and the Play
button. Under the list, in red, one line per entry of the player's variants folder that
was skipped and why (a file that does not validate, a folder named ``x.toml``, a FIFO, a
symbolic-link loop, an unreadable file; :func:`skipped_lines`).

On a small screen: the launcher fits the screen it opens on (down to 1024 x 600; a window
larger than the screen is made smaller, :meth:`Launcher.fit_screen`), and it asks for a
size that fits it: a smaller picture, a list that shows fewer rows. The deal field and the
buttons (Rules, Play, "Back to ...") sit at the bottom of the window, in the same place for
every game; what is above them (summary, picture, options) scrolls when the window is too
short for it.

The player's variants folder is read again when it changes while the launcher is open
(looked at when the launcher's window gets the keyboard focus and every
:data:`RESCAN_MS` ms; :func:`rescan_user_variants`), so a file made with ``solitaire
variant new`` in a terminal is listed without a restart; New game... and Edit a copy...
never offer an id that a file of that folder already has.

Keyboard: Up/Down choose a variant, Tab moves through the options, the deal field and the
buttons, Return plays (on the Rules button it opens the rules; in the filter box it plays
the first game of the list, which typing there selects). Ctrl+A in the filter box or the
deal field selects its whole text. A double click on a variant plays it.
"""

from __future__ import annotations

import os
import re
import tkinter as tk
from collections.abc import Callable, Mapping
from pathlib import Path
from tkinter import font as tkfont
from tkinter import ttk
from typing import Any

from PIL import ImageTk

from solitaire_core import uservariants
from solitaire_core.errors import SolitaireError
from solitaire_core.i18n import N_
from solitaire_core.i18n import gettext as _
from solitaire_core.persistence.paths import user_variants_dir
from solitaire_core.plugins import (
    BUILTIN_PLUGINS,
    USER_PLUGIN,
    PluginProblem,
    Registry,
    disabled_plugins,
)
from solitaire_core.plugins import _load_file as load_plugin_file
from solitaire_core.variant import VariantDefinition

from .. import widgets
from ..dialogs import common as dialogs
from ..dialogs import rules as rules_dialog
from ..table.preview import PREVIEW_SIZE, SAMPLE_DEAL, preview_for

__all__ = [
    "FAMILY_LABELS",
    "Launcher",
    "OnPlay",
    "family_of",
    "free_variant_id",
    "launcher_groups",
    "match_rank",
    "matches",
    "rescan_user_variants",
    "skipped_lines",
]

FIRST_VARIANT = "seahaven"
"""The game selected at the very first start (no game played yet): Seahaven Towers."""

OnPlay = Callable[[str, dict[str, str], "int | None"], Any]
"""``on_play(variant_id, options, deal_number_or_None)``; ``None`` means a random deal."""

RESCAN_MS = 2000
"""How often (ms) the launcher looks whether the player's variants folder changed (a
``scandir`` and a ``stat`` per file; the files are read again only when it did)."""

_PREVIEW_DELAY_MS = 250  # wait this long after typing before redrawing the picture
_LIST_ROWS = 8  # rows the game list asks for; the window's height gives it more
_CELL_PADDING = 12  # pixels a Treeview cell takes beside its text
_OPTIONS_ROOM = 150  # pixels kept for one option box under the picture
_MIN_PREVIEW_HEIGHT = 120  # the picture is never made smaller than this to fit a screen
_MIN_DETAILS_HEIGHT = 120  # nor the part above the deal field shorter than this
_PADDING = (18, 14, 18, 14)  # the launcher's own padding: left, top, right, bottom
_HEADING_GAP = 10  # pixels under the heading
_FROM_WIDTH = 90  # pixels of the "From" column (a plugin's name)
_TREE_INDENT = 40  # pixels of the first column left of a game's name (indent and mark)
_COLUMN_GAP = 18  # between the list and the details
_DEAL_GAP = 10  # above the deal field
_BUTTONS_GAP = 12  # above the buttons
_TEXT_GAPS = 4 + 10 + 3 + 10  # around the summary and the picture's caption


def _select_all(entry: ttk.Entry) -> str:
    """Ctrl+A in an entry: select its whole text (Tk's own binding on X11 goes to the
    line's start, as in Emacs)."""
    entry.select_range(0, "end")
    entry.icursor("end")
    return "break"


FAMILY_LABELS: dict[str, str] = {
    "freecell": N_("FreeCell type"),
    "seahaven": N_("Seahaven type"),
    "beleaguered-castle": N_("Beleaguered Castle type"),
    "fan": N_("Fan type"),
    "klondike": N_("Klondike type"),
    "yukon": N_("Yukon type"),
    "spider": N_("Spider type"),
    "gypsy": N_("Gypsy type"),
    "forty-thieves": N_("Forty Thieves type"),
    "canfield": N_("Canfield type"),
    "golf": N_("Golf type"),
    "pairing": N_("Pairing type"),
    "other": N_("Other games"),
}
"""The launcher's group title for each ``family`` value (docs/variant-format.md), in
English (translated when shown, as :func:`launcher_groups` gives them); a value not
listed here is shown capitalised, after these and before "Two-deck" and "Other"."""


def family_of(definition: VariantDefinition) -> str:
    """The variant's ``family`` key (``"other"`` when the file has none)."""
    return str(definition.data.get("family", "other") or "other")


def matches(definition: VariantDefinition, text: str) -> bool:
    """Whether every word of ``text`` (any case) is in the variant's name, id, aliases,
    family or summary; an empty ``text`` matches every variant."""
    family = family_of(definition)
    haystack = " ".join(
        [
            definition.name,
            definition.id,
            family,
            FAMILY_LABELS.get(family, ""),
            " ".join(str(a) for a in definition.data.get("aliases", ())),
            definition.summary,
        ]
    ).casefold()
    return all(word in haystack for word in text.casefold().split())


def _name_key(text: str) -> str:
    """``text`` as the filter compares names: any case, apostrophes dropped, ``-`` and
    runs of spaces as one space ("Baker's Game", "bakers-game" -> "bakers game")."""
    text = re.sub(r"['\u2019`]", "", text.casefold())
    return " ".join(text.replace("-", " ").replace("_", " ").split())


def match_rank(definition: VariantDefinition, text: str) -> int | None:
    """How well the variant matches the filter ``text``: ``0`` when its name, id or an
    alias is ``text`` (any case, apostrophes and ``-`` aside: "bakers game" is Baker's
    Game), ``1`` when one of them starts with it, ``2`` when it only :func:`matches`,
    ``None`` when it does not match."""
    if not matches(definition, text):
        return None
    wanted = _name_key(text)
    if not wanted:
        return 2
    names = [definition.name, definition.id, *(str(a) for a in definition.data.get("aliases", ()))]
    keys = [_name_key(name) for name in names]
    if wanted in keys:
        return 0
    if any(key.startswith(wanted) for key in keys):
        return 1
    return 2


SKIPPED_SHOWN = 5
"""The most skipped entries of the variants folder the launcher names; the rest are
counted ("and 3 more: solitaire list names them all")."""


def skipped_lines(registry: Registry, limit: int = SKIPPED_SHOWN) -> list[str]:
    """What the launcher says about the player's variants folder: one line per entry that
    was skipped and why, from ``registry.problems`` of the plugin ``yours``.

    :param registry: the installed variants and the problems met loading them.
    :param limit: the most entries named; past it one more line counts the rest.
    :return: ``[]`` when nothing was skipped, else lines such as ``"Skipped fifo.toml:
        /p/fifo.toml is a FIFO (named pipe), not a file"``, or ``"/p/variants is a file,
        not a folder: no variant of yours is loaded"`` when the folder cannot be one.
    """
    mine = [p for p in registry.problems if p.plugin == USER_PLUGIN]
    lines = [  # the folder itself (a file, a symbolic-link loop) is named by its reason
        p.reason if p.what == "solitaire_variant_files" else f"Skipped {p.what}: {p.reason}"
        for p in mine[:limit]
    ]
    if len(mine) > limit:
        lines.append(f"and {len(mine) - limit} more: 'solitaire list' names them all")
    return lines


def launcher_groups(
    variants: Mapping[str, VariantDefinition], recent: tuple[str, ...] = (), text: str = ""
) -> list[tuple[str, str, list[str]]]:
    """The launcher's groups, in order: ``(key, title, variant ids)``, empty groups left out.

    With a filter ``text``, "Best matches" first: the games whose name, id or alias is
    the text, then those where one starts with it (:func:`match_rank`), each by name.
    Then "Recent" (``recent`` ids that are installed, in that order), "Yours" (the
    user variants folder), then one group per family, FreeCell type first and "Other
    games" last, with "Two-deck" (every game of two or more decks) just before "Other
    games". Each id is in its family's group; it may also be in Best matches, Recent,
    Yours and Two-deck. Within a group (Recent aside) games are sorted by name.

    :param variants: the installed variants by id.
    :param recent: ids of the games played last, newest first.
    :param text: the filter (:func:`matches`).
    """
    ranks = {vid: match_rank(d, text) for vid, d in variants.items()}
    shown = {vid: d for vid, d in variants.items() if ranks[vid] is not None}
    by_name = sorted(shown, key=lambda vid: (shown[vid].name.casefold(), vid))
    families = {family_of(shown[vid]) for vid in by_name}
    order = [f for f in FAMILY_LABELS if f != "other" and f in families]
    order += sorted(families - set(FAMILY_LABELS))
    rank = {vid: r for vid, r in ranks.items() if r is not None}
    best = sorted((v for v in by_name if rank[v] < 2), key=rank.__getitem__)  # stable: by name
    groups: list[tuple[str, str, list[str]]] = [
        ("best", _("Best matches"), best if text.strip() else []),
        ("recent", _("Recent"), [vid for vid in recent if vid in shown]),
        ("yours", _("Yours"), [vid for vid in by_name if shown[vid].plugin == USER_PLUGIN]),
    ]
    for family in order:
        title = (
            _(FAMILY_LABELS[family])
            if family in FAMILY_LABELS
            else family.replace("-", " ").capitalize()
        )
        groups.append((family, title, [v for v in by_name if family_of(shown[v]) == family]))
    groups.append(("two-deck", _("Two-deck"), [v for v in by_name if shown[v].decks >= 2]))
    groups.append(
        ("other", _(FAMILY_LABELS["other"]), [v for v in by_name if family_of(shown[v]) == "other"])
    )
    return [g for g in groups if g[2]]


# --- the player's variants folder, read again --------------------------------------------


def _from_folder(definition: VariantDefinition, folder: Path) -> bool:
    """Whether ``definition`` was loaded from a file of the variants folder ``folder``."""
    return definition.plugin == USER_PLUGIN and Path(definition.source).parent == folder


def _folder_signature(folder: Path) -> tuple[object, ...]:
    """What changes when a ``*.toml`` entry of ``folder`` is added, removed, renamed or
    rewritten: the folder's identity and, per entry, its name, size, modification time
    and inode (each looked at with ``stat`` only: nothing is opened, a FIFO does not
    block). A folder that is missing or cannot be listed gives the reason instead."""
    try:
        info = os.stat(folder)
        with os.scandir(folder) as scan:
            names = sorted(e.name for e in scan if e.name.endswith(".toml"))
    except OSError as exc:
        return ("unlisted", type(exc).__name__, exc.errno)
    entries: list[tuple[object, ...]] = []
    for name in names:
        try:
            st = os.stat(folder / name)
            entries.append((name, st.st_size, st.st_mtime_ns, st.st_ino))
        except OSError as exc:  # a symbolic-link loop, a link to nothing
            entries.append((name, type(exc).__name__, exc.errno))
    return (info.st_ino, info.st_mtime_ns, tuple(entries))


def _registry_knows_folder(registry: Registry, folder: Path) -> bool:
    """Whether ``registry`` holds (as a variant, or as a problem met loading it) every
    ``*.toml`` entry of ``folder`` now there, and no variant from a file of it that is
    gone: if not, the folder changed since the registry was built."""
    try:
        with os.scandir(folder) as scan:
            names = {e.name for e in scan if e.name.endswith(".toml")}
    except OSError:
        names = set()
    loaded = {Path(d.source).name for d in registry.variants.values() if _from_folder(d, folder)}
    reported = {Path(p.what).name for p in registry.problems if p.plugin == USER_PLUGIN}
    return names <= loaded | reported and loaded <= names


def rescan_user_variants(registry: Registry, folder: Path | None = None) -> None:
    """Read the player's variants folder again into ``registry``, as it is loaded at
    start (:func:`solitaire_core.plugins.build_registry`): the variants of its files
    replace those read before, with the rule predicates and deal methods ``registry``
    has; the problems of the plugin ``yours`` are those met now (a file that does not
    validate, a FIFO, an id another plugin has...). Other variants are kept.

    :param registry: the registry to change in place (the app's).
    :param folder: the folder; default :func:`~solitaire_core.persistence.paths.user_variants_dir`,
        the one :func:`solitaire_core.uservariants.solitaire_variant_files` lists.
    """
    folder = folder if folder is not None else user_variants_dir()
    fresh = Registry(
        variants={v: d for v, d in registry.variants.items() if not _from_folder(d, folder)},
        predicates=registry.predicates,
        deal_methods=registry.deal_methods,
    )
    hook = "solitaire_variant_files"
    try:
        files = uservariants.solitaire_variant_files()
    except SolitaireError as exc:  # the folder's path is a file, or cannot be listed
        fresh.problems.append(PluginProblem(USER_PLUGIN, hook, str(exc)))
        files = []
    for file in files:
        definition = load_plugin_file(USER_PLUGIN, file, fresh)
        if definition is None:
            continue
        other = fresh.variants.get(definition.id)
        if other is not None:
            reason = f"variant id {definition.id!r} is already taken by plugin {other.plugin!r}"
            fresh.problems.append(PluginProblem(USER_PLUGIN, definition.source, reason))
            continue
        fresh.variants[definition.id] = definition
    registry.variants.clear()
    registry.variants.update(fresh.variants)
    registry.problems[:] = [p for p in registry.problems if p.plugin != USER_PLUGIN]
    registry.problems.extend(fresh.problems)


def free_variant_id(registry: Registry, wanted: str, folder: Path | None = None) -> str:
    """``wanted``, or ``wanted-2``, ``wanted-3``... (a trailing ``-N`` of ``wanted``
    counted on): the first id that no installed variant has and no entry of the
    variants folder is named for (``ID.toml``, even one that does not load)."""
    folder = folder if folder is not None else user_variants_dir()

    def taken(vid: str) -> bool:
        return vid in registry.variants or os.path.lexists(folder / f"{vid}.toml")

    if not taken(wanted):
        return wanted
    numbered = re.fullmatch(r"(.+)-(\d+)", wanted)
    base, n = (numbered[1], int(numbered[2]) + 1) if numbered else (wanted, 2)
    while taken(f"{base}-{n}"):
        n += 1
    return f"{base}-{n}"


class Launcher(ttk.Frame):
    """The variant chooser.

    :param master: the parent widget (usually the root window).
    :param registry: the installed variants (:func:`solitaire_core.plugins.get_registry`).
    :param settings: the player's settings; ``last_variant`` and ``last_options`` choose
        what is selected at first (anything else missing or unknown falls back to the
        first variant and its defaults). ``None`` means defaults.
    :param on_play: called with ``(variant_id, options, deal)`` when the player plays;
        ``options`` holds every option of the variant; ``deal`` is ``None`` for a random
        deal.
    :param preview_size: the picture's (width, height) in pixels; ``None``: the largest
        up to :data:`~solitaire_tk.table.preview.PREVIEW_SIZE` that leaves the launcher room on
        its screen.
    :param four_colour: draw the picture with the four-colour deck.
    :param on_winnable_only: called with the new value when the player ticks or unticks
        "Winnable deals only" (its first value is ``settings.winnable_only``); the owner
        saves it and finds the winnable deal when Play asks for a random one.
    :param on_back: ``(text, callback)`` for a game left on the table: a button with that
        text (e.g. "Back to Seahaven Towers, deal 5") calls ``callback``; Escape too.
    :param modal: passed to the variant editor the workshop buttons open (its question
        about unsaved changes waits for the answer; ``False`` in tests).

    Attributes for the app and tests: ``tree`` (the variant list: a row ``group:KEY`` per
    group of :func:`launcher_groups`, under it a row per variant, whose id is the variant
    id in the variant's family group and ``KEY:ID`` in the others), ``filter_var`` and
    ``filter_entry`` (the filter box), ``filter_message`` (shown over the empty list when
    nothing matches), ``details`` (the :class:`~solitaire_tk.widgets.ScrolledFrame` of
    the name, summary, picture and options), ``deal_var``, ``deal_entry``,
    ``deal_message`` (the error next to the field),
    ``skipped_label`` (the entries of the variants folder that were skipped, in red:
    :func:`skipped_lines`; empty when none was), ``play_button``, ``rules_button``,
    ``option_vars`` (option name -> StringVar),
    ``option_buttons`` ((option name, value) -> Radiobutton), ``preview_label``,
    ``preview_image`` (the PIL image shown) and ``preview_size`` (its size: the
    picture is drawn again at a new size a moment after the window's size changes),
    ``winnable_var`` and ``winnable_check`` (the "Winnable deals only" check box),
    ``busy_label`` and ``cancel_button`` (shown while the owner looks for a winnable
    deal, :meth:`show_busy`), ``back_button`` (with ``on_back``, else ``None``).
    """

    def __init__(
        self,
        master: tk.Misc,
        *,
        registry: Registry,
        settings: Any = None,
        on_play: OnPlay,
        preview_size: tuple[int, int] | None = None,
        four_colour: bool | None = None,
        on_winnable_only: Callable[[bool], object] | None = None,
        on_back: tuple[str, Callable[[], object]] | None = None,
        modal: bool = True,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("padding", _PADDING)
        super().__init__(master, **kwargs)
        self.registry = registry
        self.on_play = on_play
        self.on_winnable_only = on_winnable_only
        self._on_back = on_back
        self.modal = modal
        self.winnable_var = tk.BooleanVar(
            self, value=bool(getattr(settings, "winnable_only", False))
        )
        self._busy = False
        self._picture_size = preview_size or PREVIEW_SIZE  # the size wanted next
        self.preview_size = self._picture_size
        if four_colour is None:
            four_colour = bool(getattr(settings, "four_colour", False))
        self.four_colour = four_colour
        self.variants: dict[str, VariantDefinition] = {}
        self._sort_variants()
        self.recent: tuple[str, ...] = tuple(getattr(settings, "recent_variants", ()) or ())
        self._row_variant: dict[str, str] = {}  # tree row -> variant id
        self._chosen: dict[str, dict[str, str]] = {}  # options picked per variant
        for variant, chosen in getattr(settings, "variant_options", ()):
            if variant in self.variants:
                self._chosen[variant] = self._valid_options(self.variants[variant], dict(chosen))
        last = getattr(settings, "last_variant", None)
        last_options = dict(getattr(settings, "last_options", None) or {})
        if last in self.variants:
            self._chosen[last] = self._valid_options(self.variants[last], last_options)
        self._current: str | None = None
        self._preview_job: str | None = None
        self._rescan_job: str | None = None
        self._folder_seen: tuple[object, ...] | None = None  # the folder as last read
        self._photo: ImageTk.PhotoImage | None = None
        self.preview_image: Any = None
        self.option_vars: dict[str, tk.StringVar] = {}
        self.option_buttons: dict[tuple[str, str], ttk.Radiobutton] = {}
        self._tag = f"Launcher{id(self)}"
        self._build()
        self._size_for_screen(fit_picture=preview_size is None)
        self.bind_class(self._tag, "<Return>", self._on_return)
        self.bind_class(self._tag, "<KP_Enter>", self._on_return)
        self.bind_class(self._tag, "<FocusIn>", lambda _e: self.rescan(), add=True)
        self._tag_all(self)
        self._folder_seen = _folder_signature(user_variants_dir())
        if not _registry_knows_folder(self.registry, user_variants_dir()):
            self.rescan(force=True)  # changed since the registry was read (a game ago)
        if last not in self.variants:  # the first start opens on Seahaven Towers
            last = FIRST_VARIANT if FIRST_VARIANT in self.variants else None
        first = last if last is not None else next(iter(self.visible_variants()), None)
        if first is not None:
            self.select(first)
        self.after_idle(self._focus_list)
        self._fitted = False  # fit_screen has seen the window's real size
        self.bind("<Configure>", self._on_configure, add=True)
        self._rescan_job = self.after(RESCAN_MS, self._rescan_tick)

    # --- building ----------------------------------------------------------------------

    def _build(self) -> None:
        """Lay the launcher out: the heading; the filter, the list and the workshop
        buttons on the left; the details (name, summary, picture, options) on the right,
        in a part that scrolls; under them the deal field; the buttons along the bottom.
        The deal field and the buttons keep their place whatever the game: only the
        details' part grows or shrinks with the window."""
        self.columnconfigure(1, weight=1)
        self.rowconfigure(1, weight=1)
        self.heading_label = ttk.Label(
            self,
            text=_("Choose a game"),
            font=widgets.scaled_font(self, "TkHeadingFont", 5, bold=True),
        )
        self.heading_label.grid(
            row=0, column=0, columnspan=2, sticky="w", pady=(0, _HEADING_GAP)
        )  # fmt: skip

        # Left: the filter box and the list of variants, grouped.
        left = ttk.Frame(self)
        left.grid(row=1, column=0, rowspan=2, sticky="ns", padx=(0, _COLUMN_GAP))
        left.rowconfigure(1, weight=1)
        filter_row = ttk.Frame(left)
        filter_row.grid(row=0, column=0, columnspan=2, sticky="ew", pady=(0, 6))
        filter_row.columnconfigure(1, weight=1)
        ttk.Label(filter_row, text=_("Filter:")).grid(row=0, column=0, sticky="w")
        self.filter_var = tk.StringVar(self)
        self.filter_entry = ttk.Entry(filter_row, textvariable=self.filter_var)
        self.filter_entry.grid(row=0, column=1, sticky="ew", padx=(6, 0))
        self.filter_var.trace_add("write", lambda *_a: self._on_filter_changed())
        self.filter_entry.bind("<Down>", self._filter_to_list)
        # The first column shows the game's name (and a group's, with its open/close
        # mark); "name" keeps it as a value too. "From" names the plugin or the variants
        # folder a game comes from, and shows only while a game in the list has one.
        self.tree = ttk.Treeview(
            left,
            columns=("name", "plugin"),
            displaycolumns=(),
            show=("tree", "headings"),
            selectmode="browse",
            height=_LIST_ROWS,
        )
        self.tree.heading("#0", text=_("Game"), anchor="w")
        self.tree.heading("plugin", text=_("From"), anchor="w")
        self._name_width = 244  # the Game column's width beside a "From" column
        self.tree.column("#0", width=self._name_width, minwidth=120, stretch=False)
        self.tree.column("plugin", width=_FROM_WIDTH, anchor="w", stretch=False)
        self.tree.tag_configure("builtin", foreground="")
        self.tree.tag_configure("plugin", foreground="#1d4f91")
        self._group_font = dialogs.scaled_font(self, "TkDefaultFont", 0, bold=True)
        self.tree.tag_configure("group", font=self._group_font)
        # Over the empty list when nothing matches: placed, so it never widens the list.
        field = ttk.Style(self).lookup("Treeview", "fieldbackground") or "white"
        self.filter_message = ttk.Label(
            self.tree, text="", foreground=dialogs.DIM, background=field, justify="left"
        )
        self._populate()
        bar = self._list_bar = ttk.Scrollbar(left, orient="vertical", command=self.tree.yview)
        self.tree.configure(yscrollcommand=bar.set)
        self.tree.grid(row=1, column=0, sticky="ns")
        bar.grid(row=1, column=1, sticky="ns")
        self.tree.bind("<<TreeviewSelect>>", self._on_select)
        self.tree.bind("<Double-1>", self._on_double_click)
        workshop = ttk.Frame(left)
        workshop.grid(row=2, column=0, columnspan=2, sticky="w", pady=(8, 0))
        self.new_button = ttk.Button(workshop, text=_("New game..."), command=self.new_game)
        self.new_button.pack(side="left", padx=(0, 8))
        self.edit_button = ttk.Button(workshop, text=_("Edit a copy..."), command=self.edit_game)
        self.edit_button.pack(side="left")
        self.editor: Any = None  # the variant editor window, while it is open
        self.skipped_label = ttk.Label(
            left, text="", foreground=widgets.ERROR, justify="left", wraplength=340
        )
        self.skipped_label.grid(row=3, column=0, columnspan=2, sticky="w", pady=(8, 0))
        self._show_skipped()

        # Right: details of the selected variant, in a box of a fixed size (set by
        # _size_for_screen) whose content scrolls: a game with more to show never
        # pushes the deal field and the buttons down, nor the window larger.
        box = self._details_box = ttk.Frame(self, width=1, height=1)
        box.grid(row=1, column=1, sticky="nsew")
        box.grid_propagate(False)
        box.rowconfigure(0, weight=1)
        box.columnconfigure(0, weight=1)
        self.details = widgets.ScrolledFrame(box)
        self.details.grid(row=0, column=0, sticky="nsew")
        right = self.details.interior
        right.columnconfigure(0, weight=1)
        width = self._picture_size[0]
        self._name_font = widgets.scaled_font(self, "TkHeadingFont", 3, bold=True)
        self.name_label = ttk.Label(
            right, text="", font=self._name_font, wraplength=width, justify="left"
        )
        self.name_label.grid(row=0, column=0, sticky="w")
        self.plugin_label = ttk.Label(
            right, text="", foreground=widgets.DIM, wraplength=width, justify="left"
        )
        self.plugin_label.grid(row=1, column=0, sticky="w")
        self.summary_label = ttk.Label(right, text="", wraplength=width, justify="left")
        self.summary_label.grid(row=2, column=0, sticky="w", pady=(4, 10))
        self.preview_label = ttk.Label(right, borderwidth=0)
        self.preview_label.grid(row=3, column=0, sticky="w")
        self.caption_label = ttk.Label(right, text="", foreground=widgets.DIM)
        self.caption_label.grid(row=4, column=0, sticky="w", pady=(3, 10))
        # Created before the deal field so Tab visits the options first.
        self.options_frame = ttk.Frame(right)
        self.options_frame.grid(row=5, column=0, sticky="new")
        self.options_frame.columnconfigure(0, weight=1)

        deal_row = ttk.Frame(self)
        deal_row.grid(row=2, column=1, sticky="sew", pady=(_DEAL_GAP, 0))
        deal_label = ttk.Label(deal_row, text=_("Deal number:"))
        deal_label.grid(row=0, column=0, sticky="w")
        self.deal_var = tk.StringVar(self)
        self.deal_entry = ttk.Entry(deal_row, textvariable=self.deal_var, width=22)
        self.deal_entry.grid(row=0, column=1, sticky="w", padx=(8, 10))
        self.deal_hint = ttk.Label(deal_row, text=_("empty: a random deal"), foreground=widgets.DIM)
        self.deal_hint.grid(row=0, column=2, sticky="w")
        self.deal_message = ttk.Label(deal_row, text="", foreground=widgets.ERROR)
        self.deal_message.grid(row=1, column=1, columnspan=2, sticky="w", padx=(8, 0), pady=(2, 0))
        self.deal_var.trace_add("write", lambda *_a: self._on_deal_changed())
        winnable = ttk.Frame(deal_row)
        winnable.grid(row=2, column=0, columnspan=3, sticky="w", pady=(4, 0))
        self.winnable_check = ttk.Checkbutton(
            winnable,
            text=_("Winnable deals only"),
            variable=self.winnable_var,
            command=self._on_winnable_changed,
        )
        self.winnable_check.pack(side="left")
        winnable_hint = ttk.Label(
            winnable, text=_("a random deal the solver has proved winnable"), foreground=widgets.DIM
        )
        winnable_hint.pack(side="left", padx=(10, 0))
        self._deal_row_widgets = (
            (deal_label, self.deal_entry, self.deal_hint),
            (self.deal_message,),
            (self.winnable_check, winnable_hint),
        )
        for entry in (self.filter_entry, self.deal_entry):
            for sequence in ("<Control-a>", "<Control-A>"):
                entry.bind(sequence, lambda _e, e=entry: _select_all(e))

        # The buttons, along the bottom: "Back to ..." on the left, Rules and Play at the
        # right edge (created first: Tab visits Rules, Play, then Back).
        buttons = ttk.Frame(self)
        buttons.grid(row=3, column=0, columnspan=2, sticky="ew", pady=(_BUTTONS_GAP, 0))
        actions = ttk.Frame(buttons)
        actions.pack(side="right")
        self.busy_label = ttk.Label(actions, text="")
        self.cancel_button = ttk.Button(actions, text=_("Cancel"), command=lambda: None)
        self.rules_button = ttk.Button(actions, text=_("Rules..."), command=self.show_rules)
        self.rules_button.pack(side="left", padx=(0, 8))
        self.rules_button.bind("<Return>", self._on_rules_key)
        self.play_button = ttk.Button(actions, text=_("Play"), command=self.play, default="active")
        self.play_button.pack(side="left")
        self.back_button: ttk.Button | None = None
        if self._on_back is not None:
            text, back = self._on_back
            self.back_button = ttk.Button(buttons, text=text, command=back)
            self.back_button.pack(side="left", padx=(0, 12))

            def escape(_event: object) -> str:
                back()
                return "break"

            self.bind_class(self._tag, "<Escape>", escape)

    def _size_for_screen(self, *, fit_picture: bool) -> None:
        """Ask for a size that fits the screen (:func:`~solitaire_tk.widgets.screen_room`,
        less the window's menu bar): the details' box as tall as the room leaves, at most
        what a game with one option box needs, and as wide as the picture that fits it.
        With ``fit_picture`` the picture then follows the box's real size (the window
        may be smaller than the screen, or be resized): :meth:`_fit_picture`."""
        # Sizes from the widgets themselves (a frame's is known only once Tk has laid it
        # out, when idle: that would run whatever else waits for idle time, mid-build).
        room_width, room_height = widgets.screen_room(self)
        room_height -= widgets.menu_height(self.winfo_toplevel())
        left, top, right, bottom = _PADDING
        deal_row = self._deal_row_widgets
        deal_height = (
            max(w.winfo_reqheight() for w in deal_row[0]) + 2
            + self.deal_message.winfo_reqheight() + 4
            + max(w.winfo_reqheight() for w in deal_row[2])
        )  # fmt: skip
        deal_width = max(
            sum(w.winfo_reqwidth() for w in deal_row[0]) + 8 + 10,
            sum(w.winfo_reqwidth() for w in deal_row[2]) + 10,
        )
        buttons = [self.play_button, self.rules_button, self.back_button]
        other_height = (
            top + bottom
            + self.heading_label.winfo_reqheight() + _HEADING_GAP
            + deal_height + _DEAL_GAP
            + max(b.winfo_reqheight() for b in buttons if b is not None) + _BUTTONS_GAP
        )  # fmt: skip
        list_width = self.tree.winfo_reqwidth() + self._list_bar.winfo_reqwidth()
        other_width = left + right + list_width + _COLUMN_GAP
        self._bar_width = self.details.bar.winfo_reqwidth() + 4
        line = tkfont.nametofont("TkDefaultFont", root=self).metrics("linespace")
        self._text_height = self._name_font.metrics("linespace") + 4 * line + _TEXT_GAPS
        if fit_picture:
            full_width, full_height = PREVIEW_SIZE
            width = max(min(full_width + self._bar_width, room_width - other_width), deal_width)
            height = min(self._text_height + full_height, room_height - other_height)
            self._picture_size = self.preview_size = self._picture_for(width, height)
        width = max(self._picture_size[0] + self._bar_width, deal_width)
        height = self._text_height + self._picture_size[1] + _OPTIONS_ROOM
        height = max(_MIN_DETAILS_HEIGHT, min(height, room_height - other_height))
        self._details_box.configure(width=width, height=height)
        self._set_wrap(self._picture_size[0])
        if fit_picture:
            self._details_box.bind("<Configure>", self._fit_picture, add=True)

    def _picture_for(self, width: int, height: int) -> tuple[int, int]:
        """The largest picture, :data:`~solitaire_tk.table.preview.PREVIEW_SIZE` at most and
        :data:`_MIN_PREVIEW_HEIGHT` tall at least, that shows whole under the name and a
        three-line summary in a details' box of ``width`` x ``height`` pixels."""
        full_width, full_height = PREVIEW_SIZE
        scale = min(
            1.0,
            (height - self._text_height) / full_height,
            (width - self._bar_width) / full_width,
        )
        scale = max(scale, _MIN_PREVIEW_HEIGHT / full_height)
        return round(full_width * scale), round(full_height * scale)

    def _fit_picture(self, event: tk.Event) -> None:
        """The details' box changed size: make the picture as large as fits it (drawn
        again a moment later, as when the deal number changes)."""
        size = self._picture_for(event.width, event.height)
        if abs(size[1] - self._picture_size[1]) < 4:
            return  # a few pixels: not worth drawing it again
        self._picture_size = size
        self._set_wrap(size[0])
        if self._preview_job is not None:
            self.after_cancel(self._preview_job)
        self._preview_job = self.after(_PREVIEW_DELAY_MS, self._update_preview)

    def _set_wrap(self, width: int) -> None:
        for label in (self.name_label, self.plugin_label, self.summary_label):
            label.configure(wraplength=width)

    def fit_screen(self) -> None:
        """Make the launcher's window fit its screen when it is larger (the game window's
        saved size may be, on a laptop's screen): no larger than
        :func:`~solitaire_tk.widgets.screen_room` less the menu bar, and moved onto the
        screen (:func:`~solitaire_tk.widgets.fit_window`). A window that fits is left
        as it is. Called once by itself, when the launcher is first given its size (a
        window the player makes larger later, or maximizes, is theirs)."""
        if not self.winfo_exists():
            return
        window = self.winfo_toplevel()
        size = re.match(r"(\d+)x(\d+)", window.wm_geometry())
        if size is None or int(size[1]) <= 1:
            return  # not laid out yet: the first <Configure> calls again
        self._fitted = True
        width, height = int(size[1]), int(size[2])
        room_width, room_height = widgets.screen_room(window)
        room_height -= widgets.menu_height(window)
        if width <= room_width and height <= room_height:
            return
        widgets.fit_window(window, min(width, room_width), min(height, room_height))

    def _on_configure(self, _event: object) -> None:
        if not self._fitted:
            self.fit_screen()

    def _show_skipped(self) -> None:
        """Show the lines of :func:`skipped_lines` under the workshop buttons (none: the
        label takes no room)."""
        text = "\n".join(skipped_lines(self.registry))
        self.skipped_label.configure(text=text)
        if text:
            self.skipped_label.grid()
        else:
            self.skipped_label.grid_remove()

    def _populate(self) -> None:
        """Fill the list with the groups that match the filter (all open)."""
        self.tree.delete(*self.tree.get_children())
        self._row_variant = {}
        groups = launcher_groups(self.variants, self.recent, self.filter_var.get())
        from_somewhere = False  # a game of a plugin or of the variants folder is listed
        for key, title, ids in groups:
            group = f"group:{key}"
            heading = f"{title} ({len(ids)})"
            self.tree.insert(
                "", "end", iid=group, text=heading, values=(heading, ""), open=True,
                tags=("group",),
            )  # fmt: skip
            for vid in ids:
                definition = self.variants[vid]
                row = vid if key == family_of(definition) else f"{key}:{vid}"
                builtin = definition.plugin in BUILTIN_PLUGINS
                source = "" if builtin else definition.plugin
                from_somewhere = from_somewhere or bool(source)
                self.tree.insert(
                    group,
                    "end",
                    iid=row,
                    text=definition.name,
                    values=(definition.name, source),
                    tags=("builtin" if builtin else "plugin",),
                )
                self._row_variant[row] = vid
        self._fit_name_column(beside_from=from_somewhere)
        # After the widths: the list asks for its width when its columns change.
        self.tree.configure(displaycolumns=("plugin",) if from_somewhere else ())
        if groups:
            self.filter_message.configure(text="")
            self.filter_message.place_forget()
        else:
            width = sum(int(self.tree.column(c, "width")) for c in ("#0", "plugin"))
            heading = tkfont.nametofont("TkHeadingFont", root=self).metrics("linespace")
            self.filter_message.configure(
                text=_("No game matches: clear the box to see every game."),
                wraplength=width - 24,
            )
            self.filter_message.place(x=12, y=heading + 16)

    def _sort_variants(self) -> None:
        """Take the registry's variants, sorted by name."""
        self.variants = dict(
            sorted(self.registry.variants.items(), key=lambda item: item[1].name.casefold())
        )

    def _fit_name_column(self, *, beside_from: bool) -> None:
        """Widen the Game column so that its longest row shows whole (a family heading
        such as "Beleaguered Castle type (5)" in bold, or a long plugin game's name); it
        never shrinks, and takes the "From" column's room while that is hidden, so the
        list keeps its width while the filter changes."""
        plain = tkfont.nametofont("TkDefaultFont", root=self)
        needed = 0
        for group in self.tree.get_children():
            needed = max(needed, self._group_font.measure(self.tree.set(group, "name")))
            for row in self.tree.get_children(group):
                needed = max(needed, plain.measure(self.tree.set(row, "name")))
        self._name_width = max(needed + _TREE_INDENT + _CELL_PADDING, self._name_width)
        extra = 0 if beside_from else _FROM_WIDTH
        self.tree.column("#0", width=self._name_width + extra)

    def visible_variants(self) -> list[str]:
        """The variant ids the list shows, in the list's order, each once (a game in
        Recent or Two-deck counts where it first appears)."""
        return list(dict.fromkeys(self._row_variant.values()))

    def _on_filter_changed(self) -> None:
        """Show the games that match; while there is a filter, select the first of the
        list (an exact or prefix match when there is one: Return then plays it), else
        keep the selected game."""
        self._populate()
        shown = self.visible_variants()
        groups = self.tree.get_children()
        if self.filter_var.get().strip() and groups:
            self._select_row(self.tree.get_children(groups[0])[0])
        elif self._current in shown:
            assert self._current is not None
            self.tree.selection_set(self._current)
            self.tree.see(self._current)
        elif shown:
            self.select(shown[0])

    def _select_row(self, row: str) -> None:
        """Select a row of the list (a game in whichever group) and show its game."""
        self.tree.selection_set(row)
        self.tree.focus(row)
        self.tree.see(row)
        self._show(self._row_variant[row])

    def _filter_to_list(self, _event: object = None) -> str:
        if self._current is not None and self.tree.exists(self._current):
            self.tree.focus_set()
            self.tree.focus(self._current)
        return "break"

    def _tag_all(self, widget: tk.Misc) -> None:
        """Put the launcher's bind tag on ``widget`` and its descendants (after the
        widget's own tag, so a widget binding that returns "break" wins)."""
        tags = widget.bindtags()
        if self._tag not in tags:
            widget.bindtags((tags[0], self._tag, *tags[1:]))
        for child in widget.winfo_children():
            self._tag_all(child)

    def _focus_list(self) -> None:
        if self.winfo_exists() and self._current is not None:
            self.tree.focus_set()
            self.tree.focus(self._current)

    # --- state -------------------------------------------------------------------------

    @property
    def selected_variant(self) -> str | None:
        """The id of the selected variant, or ``None`` when none is installed."""
        return self._current

    @property
    def options(self) -> dict[str, str]:
        """The chosen options of the selected variant, every option included."""
        return {name: var.get() for name, var in self.option_vars.items()}

    @property
    def deal_number(self) -> int | None:
        """The typed deal number; ``None`` when the field is empty or invalid."""
        return dialogs.parse_deal_text(self.deal_var.get())[0]

    @property
    def deal_error(self) -> str:
        """What is wrong with the typed deal number (empty when it is fine)."""
        return dialogs.parse_deal_text(self.deal_var.get())[1]

    @staticmethod
    def _valid_options(definition: VariantDefinition, wanted: Mapping[str, str]) -> dict[str, str]:
        chosen = definition.default_options()
        for option in definition.options:
            value = wanted.get(option.name)
            if value is not None and any(c.value == value for c in option.choices):
                chosen[option.name] = value
        return chosen

    def select(self, variant_id: str) -> None:
        """Select a variant (as a click on its row would).

        :raises KeyError: when no installed variant has this id.
        """
        if variant_id not in self.variants:
            raise KeyError(variant_id)
        if not self.tree.exists(variant_id):  # hidden by the filter
            self.filter_var.set("")
        if tuple(self.tree.selection()) != (variant_id,):
            self.tree.selection_set(variant_id)
        self.tree.focus(variant_id)
        self.tree.see(variant_id)
        self._show(variant_id)

    def set_option(self, name: str, value: str) -> None:
        """Choose an option value of the selected variant (as clicking its radio button).

        :raises KeyError: for an unknown option or value.
        """
        definition = self.variants[self._current] if self._current else None
        if definition is None or name not in self.option_vars:
            raise KeyError(name)
        option = next(o for o in definition.options if o.name == name)
        option.choice(value)
        self.option_vars[name].set(value)
        self._on_option_changed()

    def _on_select(self, _event: object = None) -> None:
        selection = self.tree.selection()
        vid = self._row_variant.get(selection[0]) if selection else None
        if vid is not None and vid != self._current:
            self._show(vid)

    def _show(self, variant_id: str) -> None:
        if self._current == variant_id:
            return
        self._current = variant_id
        definition = self.variants[variant_id]
        self.name_label.configure(text=definition.name)
        self.edit_button.configure(
            text=_("Edit...") if definition.plugin == USER_PLUGIN else _("Edit a copy...")
        )
        if definition.plugin in BUILTIN_PLUGINS:
            self.plugin_label.configure(text="")
            self.plugin_label.grid_remove()
        elif definition.plugin == USER_PLUGIN:
            self.plugin_label.configure(text=_("Yours: {file}").format(file=definition.source))
            self.plugin_label.grid()
        else:
            self.plugin_label.configure(
                text=_("From the plugin {plugin}").format(plugin=definition.plugin)
            )
            self.plugin_label.grid()
        self.summary_label.configure(text=definition.summary or _("No summary given."))
        self._build_options(definition)
        self.details.bind_wheel()
        self.details.canvas.yview_moveto(0)
        self._update_preview()

    def _build_options(self, definition: VariantDefinition) -> None:
        for child in self.options_frame.winfo_children():
            child.destroy()
        self.option_vars = {}
        self.option_buttons = {}
        chosen = self._chosen.setdefault(definition.id, definition.default_options())
        if not definition.options:
            ttk.Label(
                self.options_frame, text=_("This game has no options."), foreground=widgets.DIM
            ).grid(row=0, column=0, sticky="w")
        wrap = self._picture_size[0] - 30
        for row, option in enumerate(definition.options):
            box = ttk.LabelFrame(self.options_frame, text=option.label, padding=(12, 6, 12, 8))
            box.grid(row=row, column=0, sticky="ew", pady=(0, 8))
            var = tk.StringVar(self, value=chosen.get(option.name, option.default))
            self.option_vars[option.name] = var
            for choice in option.choices:
                button = ttk.Radiobutton(
                    box,
                    text=choice.label,
                    value=choice.value,
                    variable=var,
                    command=self._on_option_changed,
                )
                button.pack(anchor="w", pady=1)
                self.option_buttons[(option.name, choice.value)] = button
            if option.help:
                ttk.Label(
                    box, text=option.help, foreground=widgets.DIM, wraplength=wrap, justify="left"
                ).pack(anchor="w", pady=(4, 0))
        self._tag_all(self.options_frame)

    def _on_option_changed(self) -> None:
        if self._current is not None:
            self._chosen[self._current] = self.options
        self._update_preview()

    def _on_winnable_changed(self) -> None:
        if self.on_winnable_only is not None:
            self.on_winnable_only(bool(self.winnable_var.get()))

    def show_busy(self, text: str, on_cancel: Callable[[], object]) -> None:
        """Show that the owner is working on Play (e.g. "Finding a winnable deal…") with
        a Cancel button that calls ``on_cancel``; Play is disabled meanwhile."""
        self._busy = True
        self.busy_label.configure(text=text)
        self.cancel_button.configure(command=on_cancel)
        if not self.busy_label.winfo_manager():
            self.busy_label.pack(side="left", padx=(0, 10), before=self.rules_button)
            self.cancel_button.pack(side="left", padx=(0, 8), before=self.rules_button)
        self.play_button.state(["disabled"])

    def hide_busy(self) -> None:
        """Remove what :meth:`show_busy` showed and enable Play again."""
        self._busy = False
        if self.busy_label.winfo_manager():
            self.busy_label.pack_forget()
            self.cancel_button.pack_forget()
        self.play_button.state(["disabled"] if self.deal_error else ["!disabled"])

    @property
    def busy(self) -> bool:
        """Whether :meth:`show_busy` is in effect."""
        return self._busy

    def _on_deal_changed(self) -> None:
        error = self.deal_error
        self.deal_message.configure(text=error)
        self.play_button.state(["disabled"] if error or self._busy else ["!disabled"])
        if self._preview_job is not None:
            self.after_cancel(self._preview_job)
        self._preview_job = self.after(_PREVIEW_DELAY_MS, self._update_preview)

    def _update_preview(self) -> None:
        self._preview_job = None
        if self._current is None:
            return
        definition = self.variants[self._current]
        number = self.deal_number
        shown = number if number is not None else SAMPLE_DEAL
        self.preview_size = self._picture_size
        try:
            image = preview_for(
                definition, self.options, shown, self.preview_size, four_colour=self.four_colour
            )
        except Exception as exc:  # a plugin's deal can fail; the launcher must not
            self.preview_image = None
            self._photo = None
            self.preview_label.configure(
                image="", text=_("No picture: {reason}").format(reason=exc)
            )
            self.caption_label.configure(text="")
            return
        self.preview_image = image
        self._photo = ImageTk.PhotoImage(image, master=self)
        self.preview_label.configure(image=self._photo, text="")
        if number is None:
            self.caption_label.configure(
                text=_("Deal {number} as a sample of the layout").format(number=SAMPLE_DEAL)
            )
        else:
            self.caption_label.configure(text=_("Deal {number}").format(number=number))

    # --- actions -----------------------------------------------------------------------

    def _on_return(self, _event: object = None) -> str:
        self.play()
        return "break"

    def _on_rules_key(self, _event: object = None) -> str:
        self.show_rules()
        return "break"

    def _on_double_click(self, event: tk.Event) -> str | None:
        row = self.tree.identify_row(event.y)
        if row not in self._row_variant:
            return None  # a group's row opens and closes
        self.select(self._row_variant[row])
        self.play()
        return "break"

    def play(self) -> bool:
        """Play the selected variant with the chosen options and deal.

        :return: whether ``on_play`` was called (not when no variant is installed or the
            deal number is invalid; the message next to the field says why).
        """
        if self._current is None or self.deal_error or self._busy:
            if self.deal_error:
                self.deal_entry.focus_set()
                self.bell()
            return False
        self.on_play(self._current, self.options, self.deal_number)
        return True

    def new_game(self) -> Any:
        """Open the variant editor on a new game (the New game... button). An editor
        already open is closed first, asking about its unsaved changes
        (:meth:`close_editor`).

        :return: the new :class:`~solitaire_tk.editor.window.VariantEditor` window, or the one
            that stays open.
        """
        from ..editor.window import new_game_data

        if not self.close_editor():
            return self.editor
        self.rescan()
        data = new_game_data(self.registry)
        data["id"] = free_variant_id(self.registry, str(data["id"]))
        return self._open_editor(data, None)

    def edit_game(self) -> Any:
        """Open the variant editor on the selected game: the player's own file itself,
        any other game as a copy under a new id (the Edit... button). An editor already
        open is closed first, asking about its unsaved changes (:meth:`close_editor`).

        :return: the new :class:`~solitaire_tk.editor.window.VariantEditor` window, the one
            that stays open, or ``None`` (no game selected).
        """
        from ..editor.window import copy_for_editing

        if not self.close_editor():
            return self.editor
        self.rescan()
        if self._current is None:
            return None
        definition = self.variants[self._current]
        if definition.plugin == USER_PLUGIN:
            return self._open_editor(dict(definition.data), Path(definition.source))
        data = copy_for_editing(definition, self.registry)
        data["id"] = free_variant_id(self.registry, str(data["id"]))
        return self._open_editor(data, None)

    def close_editor(self) -> bool:
        """Close the variant editor if one is open, as its Close button does: a form
        with unsaved changes asks first (Save, Don't save, Cancel).

        :return: whether no editor is open now; ``False`` when the player kept it open
            (or, not ``modal``, the question waits for its answer): it is raised.
        """
        if self.editor is None or not self.editor.winfo_exists():
            return True
        if self.editor.close():
            return True
        question = self.editor.question
        if self.editor.winfo_exists() and (question is None or not question.winfo_exists()):
            self.editor.lift()  # (a question still open stays above it)
        return False

    def _open_editor(self, data: Mapping[str, Any], path: Any) -> Any:
        from ..editor.window import VariantEditor

        self.editor = VariantEditor(
            self.winfo_toplevel(),
            registry=self.registry,
            data=data,
            path=path,
            on_play=self.on_play,  # the app's: works after the launcher has gone
            on_saved=self._on_saved,
            modal=self.modal,
        )
        return self.editor

    def _on_saved(self, definition: VariantDefinition) -> None:
        """A game the editor saved: list it (under Yours) and select it."""
        if not self.winfo_exists():
            return
        self._sort_variants()
        self._current = None
        self._populate()
        self.select(definition.id)

    # --- the player's variants folder --------------------------------------------------

    def rescan(self, *, force: bool = False) -> bool:
        """Read the player's variants folder again when it changed since the launcher
        last looked (:func:`rescan_user_variants`), and show what changed: the list,
        the selected game's details if its file changed, the skipped entries. Nothing
        is read when the plugin ``yours`` is disabled (``SOLITAIRE_DISABLE_PLUGINS``).

        :param force: read it even if it looks unchanged.
        :return: whether it was read again.
        """
        if USER_PLUGIN in disabled_plugins() or not self.winfo_exists():
            return False
        folder = user_variants_dir()
        seen = _folder_signature(folder)
        if seen == self._folder_seen and not force:
            return False
        self._folder_seen = seen
        rescan_user_variants(self.registry, folder)
        self._reload_variants()
        return True

    def _rescan_tick(self) -> None:
        self._rescan_job = None
        self.rescan()
        self._rescan_job = self.after(RESCAN_MS, self._rescan_tick)

    def _reload_variants(self) -> None:
        """List the registry's variants again, keeping the selected game (shown anew if
        its definition changed; the first of the list if it is gone)."""
        before = self.variants.get(self._current) if self._current is not None else None
        self._sort_variants()
        self._show_skipped()
        current = self._current
        if current is not None and self.variants.get(current) is not before:
            self._current = None  # its file changed (or is gone): show it anew
        self._populate()
        if current is None:
            return
        if current not in self.variants:
            shown = self.visible_variants()
            if not shown:  # nothing matches the filter any more
                self.filter_var.set("")
                shown = self.visible_variants()
            current = shown[0] if shown else None
        if current is not None:
            self.select(current)

    def show_rules(self) -> None:
        """Open the rules of the selected variant with the chosen options."""
        if self._current is None:
            return
        definition = self.variants[self._current]
        rules_dialog.show_rules(self, definition, definition.resolve(self.options))

    def destroy(self) -> None:
        """Destroy the launcher and forget its pending picture update and folder look."""
        for job in (self._preview_job, self._rescan_job):
            if job is not None:
                try:
                    self.after_cancel(job)
                except tk.TclError:
                    pass
        self._preview_job = self._rescan_job = None
        super().destroy()
