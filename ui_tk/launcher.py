"""The launcher: pick a variant, its options and a deal, then Play.

A :class:`Launcher` is a ``ttk.Frame`` the app packs into its root window. It lists every
installed variant (third-party ones with their plugin's name) grouped by family (the
variant file's top-level ``family`` key: FreeCell type, Seahaven type, ...), with the
games of two or more decks also under "Two-deck", the player's own files also under
"Yours" and the games played last also under "Recent"; a filter box above the list keeps
only the games whose name, id, family or summary holds every word typed. For the selected one
shows its summary, a picture of a dealt layout (:mod:`solitaire_tk.preview`), its options as
radio buttons, a deal-number field (empty means a random deal), the "Winnable deals
only" check box (a random deal is then one the solver proved winnable) and the Play
button. Under the list, in red, one line per entry of the player's variants folder that
was skipped and why (a file that does not validate, a folder named ``x.toml``, a FIFO, a
symbolic-link loop, an unreadable file; :func:`skipped_lines`).

Keyboard: Up/Down choose a variant, Tab moves through the options, the deal field and the
buttons, Return plays (on the Rules button it opens the rules; in the filter box it plays
the first game that matches). A double click on a variant plays it.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable, Mapping
from tkinter import font as tkfont
from tkinter import ttk
from typing import Any

from PIL import ImageTk

from solitaire_core.plugins import BUILTIN_PLUGINS, USER_PLUGIN, Registry
from solitaire_core.variant import VariantDefinition

from . import dialogs, rules_dialog, widgets
from .preview import PREVIEW_SIZE, SAMPLE_DEAL, preview_for

__all__ = ["FAMILY_LABELS", "Launcher", "OnPlay", "family_of", "launcher_groups", "matches"]

FIRST_VARIANT = "seahaven"
"""The game selected at the very first start (no game played yet): Seahaven Towers."""

OnPlay = Callable[[str, dict[str, str], "int | None"], Any]
"""``on_play(variant_id, options, deal_number_or_None)``; ``None`` means a random deal."""

_PREVIEW_DELAY_MS = 250  # wait this long after typing before redrawing the picture
_LIST_ROWS = 22  # rows the game list shows; more scroll
_CELL_PADDING = 12  # pixels a Treeview cell takes beside its text

FAMILY_LABELS: dict[str, str] = {
    "freecell": "FreeCell type",
    "seahaven": "Seahaven type",
    "beleaguered-castle": "Beleaguered Castle type",
    "fan": "Fan type",
    "klondike": "Klondike type",
    "yukon": "Yukon type",
    "spider": "Spider type",
    "gypsy": "Gypsy type",
    "forty-thieves": "Forty Thieves type",
    "other": "Other games",
}
"""The launcher's group title for each ``family`` value (docs/variant-format.md); a value
not listed here is shown capitalised, after these and before "Two-deck" and "Other"."""


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

    "Recent" (``recent`` ids that are installed, in that order) first, then "Yours" (the
    user variants folder), then one group per family, FreeCell type first and "Other
    games" last, with "Two-deck" (every game of two or more decks) just before "Other
    games". Each id is in its family's group; it may also be in Recent, Yours and
    Two-deck. Within a group (Recent aside) games are sorted by name.

    :param variants: the installed variants by id.
    :param recent: ids of the games played last, newest first.
    :param text: the filter (:func:`matches`).
    """
    shown = {vid: d for vid, d in variants.items() if matches(d, text)}
    by_name = sorted(shown, key=lambda vid: (shown[vid].name.casefold(), vid))
    families = {family_of(shown[vid]) for vid in by_name}
    order = [f for f in FAMILY_LABELS if f != "other" and f in families]
    order += sorted(families - set(FAMILY_LABELS))
    groups: list[tuple[str, str, list[str]]] = [
        ("recent", "Recent", [vid for vid in recent if vid in shown]),
        ("yours", "Yours", [vid for vid in by_name if shown[vid].plugin == USER_PLUGIN]),
    ]
    for family in order:
        title = FAMILY_LABELS.get(family, family.replace("-", " ").capitalize())
        groups.append((family, title, [v for v in by_name if family_of(shown[v]) == family]))
    groups.append(("two-deck", "Two-deck", [v for v in by_name if shown[v].decks >= 2]))
    groups.append(
        ("other", FAMILY_LABELS["other"], [v for v in by_name if family_of(shown[v]) == "other"])
    )
    return [g for g in groups if g[2]]


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
    :param preview_size: the picture's (width, height) in pixels.
    :param four_colour: draw the picture with the four-colour deck.
    :param on_winnable_only: called with the new value when the player ticks or unticks
        "Winnable deals only" (its first value is ``settings.winnable_only``); the owner
        saves it and finds the winnable deal when Play asks for a random one.
    :param on_back: ``(text, callback)`` for a game left on the table: a button with that
        text (e.g. "Back to Seahaven Towers, deal 5") calls ``callback``; Escape too.

    Attributes for the app and tests: ``tree`` (the variant list: a row ``group:KEY`` per
    group of :func:`launcher_groups`, under it a row per variant, whose id is the variant
    id in the variant's family group and ``KEY:ID`` in the others), ``filter_var`` and
    ``filter_entry`` (the filter box), ``filter_message`` (shown when nothing matches),
    ``deal_var``, ``deal_entry``, ``deal_message`` (the error next to the field),
    ``skipped_label`` (the entries of the variants folder that were skipped, in red:
    :func:`skipped_lines`; empty when none was), ``play_button``, ``rules_button``,
    ``option_vars`` (option name -> StringVar),
    ``option_buttons`` ((option name, value) -> Radiobutton), ``preview_label``,
    ``preview_image`` (the PIL image shown), ``winnable_var`` and ``winnable_check`` (the
    "Winnable deals only" check box), ``busy_label`` and ``cancel_button`` (shown while
    the owner looks for a winnable deal, :meth:`show_busy`), ``back_button`` (with
    ``on_back``, else ``None``).
    """

    def __init__(
        self,
        master: tk.Misc,
        *,
        registry: Registry,
        settings: Any = None,
        on_play: OnPlay,
        preview_size: tuple[int, int] = PREVIEW_SIZE,
        four_colour: bool | None = None,
        on_winnable_only: Callable[[bool], object] | None = None,
        on_back: tuple[str, Callable[[], object]] | None = None,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("padding", (18, 14, 18, 14))
        super().__init__(master, **kwargs)
        self.registry = registry
        self.on_play = on_play
        self.on_winnable_only = on_winnable_only
        self._on_back = on_back
        self.winnable_var = tk.BooleanVar(
            self, value=bool(getattr(settings, "winnable_only", False))
        )
        self._busy = False
        self.preview_size = preview_size
        if four_colour is None:
            four_colour = bool(getattr(settings, "four_colour", False))
        self.four_colour = four_colour
        self.variants: dict[str, VariantDefinition] = dict(
            sorted(registry.variants.items(), key=lambda item: item[1].name.casefold())
        )
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
        self._photo: ImageTk.PhotoImage | None = None
        self.preview_image: Any = None
        self.option_vars: dict[str, tk.StringVar] = {}
        self.option_buttons: dict[tuple[str, str], ttk.Radiobutton] = {}
        self._tag = f"Launcher{id(self)}"
        self._build()
        self.bind_class(self._tag, "<Return>", self._on_return)
        self.bind_class(self._tag, "<KP_Enter>", self._on_return)
        self._tag_all(self)
        if last not in self.variants:  # the first start opens on Seahaven Towers
            last = FIRST_VARIANT if FIRST_VARIANT in self.variants else None
        first = last if last is not None else next(iter(self.visible_variants()), None)
        if first is not None:
            self.select(first)
        self.after_idle(self._focus_list)

    # --- building ----------------------------------------------------------------------

    def _build(self) -> None:
        self.columnconfigure(1, weight=1)
        self.rowconfigure(1, weight=1)
        ttk.Label(
            self,
            text="Choose a game",
            font=widgets.scaled_font(self, "TkHeadingFont", 5, bold=True),
        ).grid(row=0, column=0, columnspan=2, sticky="w", pady=(0, 10))

        # Left: the filter box and the list of variants, grouped.
        left = ttk.Frame(self)
        left.grid(row=1, column=0, sticky="ns", padx=(0, 18))
        left.rowconfigure(1, weight=1)
        filter_row = ttk.Frame(left)
        filter_row.grid(row=0, column=0, columnspan=2, sticky="ew", pady=(0, 6))
        filter_row.columnconfigure(1, weight=1)
        ttk.Label(filter_row, text="Filter:").grid(row=0, column=0, sticky="w")
        self.filter_var = tk.StringVar(self)
        self.filter_entry = ttk.Entry(filter_row, textvariable=self.filter_var)
        self.filter_entry.grid(row=0, column=1, sticky="ew", padx=(6, 0))
        self.filter_message = ttk.Label(filter_row, text="", foreground=dialogs.DIM)
        self.filter_message.grid(row=1, column=1, sticky="w", padx=(6, 0))
        self.filter_var.trace_add("write", lambda *_a: self._on_filter_changed())
        self.filter_entry.bind("<Down>", self._filter_to_list)
        self.tree = ttk.Treeview(
            left,
            columns=("name", "plugin"),
            show=("tree", "headings"),
            selectmode="browse",
            height=_LIST_ROWS,
        )
        self.tree.heading("#0", text="")
        self.tree.heading("name", text="Game", anchor="w")
        self.tree.heading("plugin", text="From", anchor="w")
        self.tree.column("#0", width=34, minwidth=34, stretch=False)
        self.tree.column("name", width=210, anchor="w", stretch=True)
        self.tree.column("plugin", width=90, anchor="w", stretch=False)
        self.tree.tag_configure("builtin", foreground="")
        self.tree.tag_configure("plugin", foreground="#1d4f91")
        self._group_font = dialogs.scaled_font(self, "TkDefaultFont", 0, bold=True)
        self.tree.tag_configure("group", font=self._group_font)
        self._populate()
        bar = ttk.Scrollbar(left, orient="vertical", command=self.tree.yview)
        self.tree.configure(yscrollcommand=bar.set)
        self.tree.grid(row=1, column=0, sticky="ns")
        bar.grid(row=1, column=1, sticky="ns")
        self.tree.bind("<<TreeviewSelect>>", self._on_select)
        self.tree.bind("<Double-1>", self._on_double_click)
        workshop = ttk.Frame(left)
        workshop.grid(row=2, column=0, columnspan=2, sticky="w", pady=(8, 0))
        self.new_button = ttk.Button(workshop, text="New game...", command=self.new_game)
        self.new_button.pack(side="left", padx=(0, 8))
        self.edit_button = ttk.Button(workshop, text="Edit a copy...", command=self.edit_game)
        self.edit_button.pack(side="left")
        self.editor: Any = None  # the variant editor window, while it is open
        skipped = "\n".join(skipped_lines(self.registry))
        self.skipped_label = ttk.Label(
            left, text=skipped, foreground=widgets.ERROR, justify="left", wraplength=340
        )
        if skipped:
            self.skipped_label.grid(row=3, column=0, columnspan=2, sticky="w", pady=(8, 0))

        # Right: details of the selected variant.
        right = ttk.Frame(self)
        right.grid(row=1, column=1, sticky="nsew")
        right.columnconfigure(0, weight=1)
        width = self.preview_size[0]
        self.name_label = ttk.Label(
            right, text="", font=widgets.scaled_font(self, "TkHeadingFont", 3, bold=True)
        )
        self.name_label.grid(row=0, column=0, sticky="w")
        self.plugin_label = ttk.Label(right, text="", foreground=widgets.DIM)
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
        right.rowconfigure(5, minsize=150)  # room for one option: no jump between variants
        self.options_frame.columnconfigure(0, weight=1)

        deal_row = ttk.Frame(right)
        deal_row.grid(row=6, column=0, sticky="ew", pady=(12, 0))
        ttk.Label(deal_row, text="Deal number:").grid(row=0, column=0, sticky="w")
        self.deal_var = tk.StringVar(self)
        self.deal_entry = ttk.Entry(deal_row, textvariable=self.deal_var, width=22)
        self.deal_entry.grid(row=0, column=1, sticky="w", padx=(8, 10))
        self.deal_hint = ttk.Label(deal_row, text="empty: a random deal", foreground=widgets.DIM)
        self.deal_hint.grid(row=0, column=2, sticky="w")
        self.deal_message = ttk.Label(deal_row, text="", foreground=widgets.ERROR)
        self.deal_message.grid(row=1, column=1, columnspan=2, sticky="w", padx=(8, 0), pady=(2, 0))
        self.deal_var.trace_add("write", lambda *_a: self._on_deal_changed())
        self.winnable_check = ttk.Checkbutton(
            deal_row,
            text="Winnable deals only",
            variable=self.winnable_var,
            command=self._on_winnable_changed,
        )
        self.winnable_check.grid(row=2, column=0, columnspan=2, sticky="w", pady=(8, 0))
        ttk.Label(
            deal_row, text="a random deal the solver has proved winnable", foreground=widgets.DIM
        ).grid(row=2, column=2, sticky="w", pady=(8, 0))

        buttons = ttk.Frame(right)
        buttons.grid(row=7, column=0, sticky="e", pady=(12, 0))
        self.busy_label = ttk.Label(buttons, text="")
        self.cancel_button = ttk.Button(buttons, text="Cancel", command=lambda: None)
        self.rules_button = ttk.Button(buttons, text="Rules...", command=self.show_rules)
        self.rules_button.pack(side="left", padx=(0, 8))
        self.rules_button.bind("<Return>", self._on_rules_key)
        self.play_button = ttk.Button(buttons, text="Play", command=self.play, default="active")
        self.play_button.pack(side="left")
        self.back_button: ttk.Button | None = None
        if self._on_back is not None:
            text, back = self._on_back
            self.back_button = ttk.Button(buttons, text=text, command=back)
            self.back_button.pack(side="left", padx=(8, 0))

            def escape(_event: object) -> str:
                back()
                return "break"

            self.bind_class(self._tag, "<Escape>", escape)

    def _populate(self) -> None:
        """Fill the list with the groups that match the filter (all open)."""
        self.tree.delete(*self.tree.get_children())
        self._row_variant = {}
        groups = launcher_groups(self.variants, self.recent, self.filter_var.get())
        for key, title, ids in groups:
            group = f"group:{key}"
            self.tree.insert(
                "", "end", iid=group, values=(f"{title} ({len(ids)})", ""), open=True,
                tags=("group",),
            )  # fmt: skip
            for vid in ids:
                definition = self.variants[vid]
                row = vid if key == family_of(definition) else f"{key}:{vid}"
                builtin = definition.plugin in BUILTIN_PLUGINS
                self.tree.insert(
                    group,
                    "end",
                    iid=row,
                    values=(definition.name, "built-in" if builtin else definition.plugin),
                    tags=("builtin" if builtin else "plugin",),
                )
                self._row_variant[row] = vid
        self.filter_message.configure(
            text="" if groups else "No game matches: clear the box to see every game."
        )
        self._fit_name_column()

    def _fit_name_column(self) -> None:
        """Widen the Game column so that its longest row shows whole (a family heading
        such as "Beleaguered Castle type (5)" in bold, or a long plugin game's name); it
        never shrinks, so the list does not jump while the filter changes."""
        plain = tkfont.nametofont("TkDefaultFont", root=self)
        needed = 0
        for group in self.tree.get_children():
            needed = max(needed, self._group_font.measure(self.tree.set(group, "name")))
            for row in self.tree.get_children(group):
                needed = max(needed, plain.measure(self.tree.set(row, "name")))
        width = max(needed + _CELL_PADDING, int(self.tree.column("name", "width")))
        self.tree.column("name", width=width)

    def visible_variants(self) -> list[str]:
        """The variant ids the list shows, in the list's order, each once (a game in
        Recent or Two-deck counts where it first appears)."""
        return list(dict.fromkeys(self._row_variant.values()))

    def _on_filter_changed(self) -> None:
        self._populate()
        shown = self.visible_variants()
        if self._current in shown:
            assert self._current is not None
            self.tree.selection_set(self._current)
            self.tree.see(self._current)
        elif shown:
            self.select(shown[0])

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
            text="Edit..." if definition.plugin == USER_PLUGIN else "Edit a copy..."
        )
        if definition.plugin in BUILTIN_PLUGINS:
            self.plugin_label.configure(text="")
            self.plugin_label.grid_remove()
        elif definition.plugin == USER_PLUGIN:
            self.plugin_label.configure(text=f"Yours: {definition.source}")
            self.plugin_label.grid()
        else:
            self.plugin_label.configure(text=f"From the plugin {definition.plugin}")
            self.plugin_label.grid()
        self.summary_label.configure(text=definition.summary or "No summary given.")
        self._build_options(definition)
        self._update_preview()

    def _build_options(self, definition: VariantDefinition) -> None:
        for child in self.options_frame.winfo_children():
            child.destroy()
        self.option_vars = {}
        self.option_buttons = {}
        chosen = self._chosen.setdefault(definition.id, definition.default_options())
        if not definition.options:
            ttk.Label(
                self.options_frame, text="This game has no options.", foreground=widgets.DIM
            ).grid(row=0, column=0, sticky="w")
        wrap = self.preview_size[0] - 30
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
        try:
            image = preview_for(
                definition, self.options, shown, self.preview_size, four_colour=self.four_colour
            )
        except Exception as exc:  # a plugin's deal can fail; the launcher must not
            self.preview_image = None
            self._photo = None
            self.preview_label.configure(image="", text=f"No picture: {exc}")
            self.caption_label.configure(text="")
            return
        self.preview_image = image
        self._photo = ImageTk.PhotoImage(image, master=self)
        self.preview_label.configure(image=self._photo, text="")
        if number is None:
            self.caption_label.configure(text=f"Deal {SAMPLE_DEAL} as a sample of the layout")
        else:
            self.caption_label.configure(text=f"Deal {number}")

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
        """Open the variant editor on a new game (the New game... button).

        :return: the :class:`~solitaire_tk.editor.VariantEditor` window.
        """
        from .editor import new_game_data

        return self._open_editor(new_game_data(self.registry), None)

    def edit_game(self) -> Any:
        """Open the variant editor on the selected game: the player's own file itself,
        any other game as a copy under a new id (the Edit... button).

        :return: the :class:`~solitaire_tk.editor.VariantEditor` window, or ``None``.
        """
        from pathlib import Path

        from .editor import copy_for_editing

        if self._current is None:
            return None
        definition = self.variants[self._current]
        if definition.plugin == USER_PLUGIN:
            return self._open_editor(dict(definition.data), Path(definition.source))
        return self._open_editor(copy_for_editing(definition, self.registry), None)

    def _open_editor(self, data: Mapping[str, Any], path: Any) -> Any:
        from .editor import VariantEditor

        if self.editor is not None and self.editor.winfo_exists():
            self.editor.destroy()
        self.editor = VariantEditor(
            self.winfo_toplevel(),
            registry=self.registry,
            data=data,
            path=path,
            on_play=self.on_play,  # the app's: works after the launcher has gone
            on_saved=self._on_saved,
        )
        return self.editor

    def _on_saved(self, definition: VariantDefinition) -> None:
        """A game the editor saved: list it (under Yours) and select it."""
        if not self.winfo_exists():
            return
        self.variants = dict(
            sorted(self.registry.variants.items(), key=lambda item: item[1].name.casefold())
        )
        self._current = None
        self._populate()
        self.select(definition.id)

    def show_rules(self) -> None:
        """Open the rules of the selected variant with the chosen options."""
        if self._current is None:
            return
        definition = self.variants[self._current]
        rules_dialog.show_rules(self, definition, definition.resolve(self.options))

    def destroy(self) -> None:
        """Destroy the launcher and forget its pending picture update."""
        if self._preview_job is not None:
            try:
                self.after_cancel(self._preview_job)
            except tk.TclError:
                pass
            self._preview_job = None
        super().destroy()
