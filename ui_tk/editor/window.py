"""The variant editor: write a game in a form, see it dealt, check it, save it, play it.

A :class:`VariantEditor` is a ``Toplevel`` window. On the left, one tab per group of the
vocabulary (Game, Layout, Deal, Building, Moves, Foundations, Autoplay, Options), with a
field for every key of the JSON Schema (:mod:`solitaire_tk.editor.form`): its name, the
value, the loader's message when the value is wrong, and the key's documentation (the
schema's ``description``). On the right, the dealt layout of a chosen deal number, the
state of the file ("valid" or the first problem), the quick conformance checks
(:mod:`solitaire_core.testing.quick`, on a background thread after every change) and, on
request, the solver's verdicts on deals 1-20 (also in the background).

Every change is validated by the loader itself (:func:`solitaire_core.variant.parse_variant`)
a moment after the last key press; the message, ``key.path: expected ...``, is shown beside
the field it names. **Save** writes ``ID.toml`` into the user variants folder (or back to
the file being edited), **Play** opens the game at once (saved or not), **Solve deals
1-20** asks the solver. Opening a file and saving it unchanged writes the same data, but
comments in the file are not kept (the window says so). **Close** (and the window's close
box) asks first when the form holds changes not saved (:class:`UnsavedChangesDialog`).

The window fits the screen it opens on (down to 1024 x 600): it takes at most the screen's
room (:func:`solitaire_tk.widgets.fit_window`), each tab of the form and the side with the
picture scroll (:class:`solitaire_tk.widgets.ScrolledFrame`), the picture shrinks with the
side, and the buttons stay in view below them.
"""

from __future__ import annotations

import copy
import queue
import threading
import tkinter as tk
from collections.abc import Callable, Mapping
from pathlib import Path
from tkinter import ttk
from typing import Any

from PIL import ImageTk

from solitaire_core.deal import deal
from solitaire_core.errors import SolitaireError, VariantError
from solitaire_core.i18n import N_, ngettext, pgettext
from solitaire_core.i18n import gettext as _
from solitaire_core.plugins import USER_PLUGIN, Registry
from solitaire_core.uservariants import FILE_PLUGIN
from solitaire_core.variant import VariantDefinition, parse_variant

from .. import widgets
from ..table.preview import render_preview
from .form import GROUPS, Field, form_fields, from_texts, to_texts

__all__ = ["UnsavedChangesDialog", "VariantEditor", "copy_for_editing", "new_game_data"]

_VALIDATE_DELAY_MS = 300  # wait this long after the last key press
_POLL_MS = 100  # how often the window looks at its background work
PREVIEW = (470, 330)
"""The largest size of the dealt picture (pixels); a narrower side shows a smaller one."""
MIN_PREVIEW_WIDTH = 240
WINDOW_SIZE = (1320, 900)
"""The window's size in pixels where the screen has room for it."""
SOLVE_DEALS = tuple(range(1, 21))
SOLVE_BUDGET = {"max_states": 200_000, "timeout": 10.0}
"""The Solve tab's budget per deal: seconds, and positions its largest search may store
(:func:`~solitaire_core.solver.budget_for`)."""
COMMENTS_NOTE = N_("Saving writes the same data back, but comments in the file are not kept.")
"""The note under the form about comments (English; shown through ``gettext``)."""

OnPlay = Callable[[str, dict[str, str], "int | None"], Any]


def _free_id(registry: Registry, wanted: str) -> str:
    vid, n = wanted, 2
    while vid in registry.variants:
        vid, n = f"{wanted}-{n}", n + 1
    return vid


def copy_for_editing(definition: VariantDefinition, registry: Registry) -> dict[str, Any]:
    """A variant's table as the start of a new game: a free id (``my-ID``), the name
    ``My NAME``, and without the keys that describe the original only (``pysolfc_id``,
    ``aliases``)."""
    data = copy.deepcopy(dict(definition.data))
    data["id"] = _free_id(registry, f"my-{definition.id}")
    data["name"] = f"My {definition.name}"
    for key in ("pysolfc_id", "aliases"):
        data.pop(key, None)
    return data


def new_game_data(registry: Registry) -> dict[str, Any]:
    """The table a new game starts from: Seahaven's layout under the id ``my-game`` (or
    ``my-game-2``...), which the player then changes."""
    data: dict[str, Any] = {
        "format_version": 1,
        "id": _free_id(registry, "my-game"),
        "name": "My Game",
        "summary": "",
        "decks": 1,
        "autoplay": "safe",
        "tableau": {
            "columns": 10,
            "build": "down-in-suit",
            "empty": "king",
            "move_limit": "free-cells-plus-one",
        },
        "cells": {"count": 4},
        "foundations": {"count": 4},
        "deal": {"columns": 5, "cells": [2, 3], "order": "rows"},
    }
    return data


class VariantEditor(tk.Toplevel):
    """The editor window.

    :param master: the parent window.
    :param registry: the installed variants (for rule names and deal methods, to refuse
        an id another variant has, and to receive the saved or played variant).
    :param data: the variant table to start from (:func:`copy_for_editing`,
        :func:`new_game_data`, or a file's table).
    :param path: the file being edited (Save writes back to it); ``None`` for a new game
        (Save writes ``ID.toml`` into the user variants folder).
    :param folder: where Save writes a new game; default the user variants folder.
    :param on_play: ``on_play(variant_id, options, deal)`` plays a game (the launcher's).
    :param on_saved: called with the saved :class:`VariantDefinition`.
    :param modal: whether the question asked before closing with unsaved changes waits
        for its answer (``False``: :meth:`close` returns at once and the answer acts when
        given; for tests, as the dialogs' ``wait``).

    Attributes for tests: ``fields`` (:class:`~solitaire_tk.editor.form.Field` by path),
    ``vars`` (path -> StringVar; the Options table's text is in ``options_text``),
    ``widgets`` (path -> entry widget), ``errors`` (path -> error label), ``helps`` (path ->
    help label), ``notebook`` and
    ``tabs`` (group key -> the tab, a :class:`~solitaire_tk.widgets.ScrolledFrame` whose
    ``interior`` holds the fields), ``side`` (the scrolled side), ``panes``,
    ``deal_var``, ``preview_image``, ``status_label``,
    ``checks_label``, ``solve_text``, ``save_button``, ``play_button``, ``solve_button``,
    ``close_button``, ``question`` (the :class:`UnsavedChangesDialog` while it is open),
    ``definition`` (the valid variant, or ``None``), ``problems`` (path -> message).
    """

    def __init__(
        self,
        master: tk.Misc,
        *,
        registry: Registry,
        data: Mapping[str, Any],
        path: Path | None = None,
        folder: Path | None = None,
        on_play: OnPlay | None = None,
        on_saved: Callable[[VariantDefinition], object] | None = None,
        modal: bool = True,
    ) -> None:
        super().__init__(master)
        self.withdraw()  # shown once built and placed
        self.registry = registry
        self.original: dict[str, Any] = copy.deepcopy(dict(data))
        self.path = path
        self.folder = folder
        self.on_play = on_play
        self.on_saved = on_saved
        self.modal = modal
        self.question: UnsavedChangesDialog | None = None
        self.fields: dict[str, Field] = {f.path: f for f in form_fields()}
        self.vars: dict[str, tk.StringVar] = {}
        self.widgets: dict[str, tk.Widget] = {}
        self.errors: dict[str, ttk.Label] = {}
        self.helps: dict[str, ttk.Label] = {}
        self.tabs: dict[str, widgets.ScrolledFrame] = {}
        # group -> its fields' rows: (first grid row, name label, entry, error, help)
        self._rows: dict[str, list[tuple[int, ttk.Label, tk.Widget, ttk.Label, ttk.Label]]] = {}
        self._narrow: dict[str, bool] = {}  # group -> names above the fields
        self._tab_width: dict[str, int] = {}  # group -> the width its fields were fitted to
        self._side_width = 0
        self._preview_width = PREVIEW[0]
        self._preview_job: str | None = None
        self.problems: dict[str, str] = {}
        self.definition: VariantDefinition | None = None
        self.preview_image: Any = None
        self._photo: ImageTk.PhotoImage | None = None
        self._validate_job: str | None = None
        self._poll_job: str | None = None
        self._results: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._check_cancel: threading.Event | None = None
        self._solve_cancel: threading.Event | None = None
        self.check_results: list[Any] = []
        self.solve_results: dict[int, Any] = {}
        self.checks_running = False
        self.solving = False
        self.title(_("Variant workshop"))
        self._build()
        self._load(self.original)
        self._saved_texts = self.texts()
        self.protocol("WM_DELETE_WINDOW", self.close)
        self.minsize(min(640, widgets.screen_room(self)[0]), min(420, widgets.screen_room(self)[1]))
        widgets.fit_window(self, *WINDOW_SIZE, over=master)
        self._sash_placed = False
        self.panes.bind("<Configure>", self._place_sash, add=True)
        self.deiconify()
        self.validate()
        self._poll_job = self.after(_POLL_MS, self._poll)

    # --- building ------------------------------------------------------------------------

    def _build(self) -> None:
        outer = ttk.Frame(self, padding=(14, 10, 14, 10))
        outer.pack(fill="both", expand=True)
        self.heading = ttk.Label(
            outer, text="", font=widgets.scaled_font(self, "TkHeadingFont", 4, bold=True)
        )
        # Packed in this order, the buttons and the heading keep their room and the
        # middle (the form and the side, both scrolling) gives it up on a small screen.
        bar = ttk.Frame(outer)
        bar.pack(side="bottom", fill="x", pady=(6, 0))
        self.close_button = ttk.Button(bar, text=_("Close"), command=self.close)
        self.close_button.pack(side="right")
        self.solve_button = ttk.Button(bar, text=_("Solve deals 1-20"), command=self.solve)
        self.solve_button.pack(side="right", padx=(0, 8))
        self.play_button = ttk.Button(bar, text=_("Play"), command=self.play)
        self.play_button.pack(side="right", padx=(0, 8))
        self.save_button = ttk.Button(bar, text=_("Save"), command=self.save, default="active")
        self.save_button.pack(side="right", padx=(0, 8))
        self.where_label = ttk.Label(outer, text="", foreground=widgets.DIM, justify="left")
        self.where_label.pack(side="bottom", fill="x", pady=(8, 0))
        self.heading.pack(side="top", anchor="w", pady=(0, 8))
        outer.bind(
            "<Configure>", lambda e: self.where_label.configure(wraplength=e.width - 28), add=True
        )
        self.panes = ttk.PanedWindow(outer, orient="horizontal")
        self.panes.pack(side="top", fill="both", expand=True)

        self.notebook = ttk.Notebook(self.panes)
        for key, title in GROUPS:
            # A fixed requested size: the content's growing and shrinking as it wraps
            # must not reach the panes (they would move the split, and so on, forever).
            tab = widgets.ScrolledFrame(
                self.notebook, padding=(12, 10, 12, 10), width=300, height=300
            )
            tab.interior.columnconfigure(1, weight=1)
            # Fitted to the width shown (the canvas's): a hidden tab's content takes the
            # width it asks for, which the fitting changes.
            tab.canvas.bind("<Configure>", lambda e, k=key: self._fit_tab(k, e.width), add=True)
            self.notebook.add(tab, text=_(title))
            self.tabs[key] = tab
            self._rows[key] = []
            self._narrow[key] = False
        rows: dict[str, int] = {}
        for field in self.fields.values():
            row = rows.get(field.group, 0)
            rows[field.group] = row + 4
            self._add_field(self.tabs[field.group].interior, field, row)
        for tab in self.tabs.values():
            tab.bind_wheel()

        self.side = widgets.ScrolledFrame(
            self.panes, padding=(16, 0, 4, 0), width=PREVIEW[0] + 20, height=300
        )
        side = self.side.interior
        side.columnconfigure(0, weight=1)
        self.side.canvas.bind("<Configure>", lambda e: self._side_resized(e.width), add=True)
        deal_row = ttk.Frame(side)
        deal_row.grid(row=0, column=0, sticky="w")
        self._deal_title = ttk.Label(deal_row, text=_("Deal number:"))
        self._deal_title.pack(side="left")
        self.deal_var = tk.StringVar(self, value="1")
        self.deal_entry = ttk.Entry(deal_row, textvariable=self.deal_var, width=10)
        self.deal_entry.pack(side="left", padx=(6, 8))
        self._deal_hint = ttk.Label(
            deal_row, text=_("as dealt, before autoplay"), foreground=widgets.DIM, justify="left"
        )
        self._deal_hint.pack(side="left")
        self.deal_var.trace_add("write", lambda *_a: self._schedule())
        self.preview_label = ttk.Label(side, borderwidth=0)
        self.preview_label.grid(row=1, column=0, sticky="w", pady=(6, 8))
        self.status_label = ttk.Label(side, text="", wraplength=PREVIEW[0], justify="left")
        self.status_label.grid(row=2, column=0, sticky="w")
        ttk.Label(side, text=_("Quick checks"), font=self._bold()).grid(
            row=3, column=0, sticky="w", pady=(10, 0)
        )
        self.checks_label = ttk.Label(side, text="", wraplength=PREVIEW[0], justify="left")
        self.checks_label.grid(row=4, column=0, sticky="w")
        ttk.Label(side, text=_("Solver, deals 1-20"), font=self._bold()).grid(
            row=5, column=0, sticky="w", pady=(10, 0)
        )
        self.solve_summary = ttk.Label(
            side, text=_("Not asked yet."), wraplength=PREVIEW[0], justify="left"
        )
        self.solve_summary.grid(row=6, column=0, sticky="w")
        self.solve_text = tk.Text(side, height=8, width=40, relief="flat", wrap="word")
        self.solve_text.grid(row=7, column=0, sticky="nsew", pady=(4, 0))
        self.solve_text.configure(state="disabled")
        self.side.bind_wheel()
        self.panes.add(self.notebook, weight=1)
        self.panes.add(self.side, weight=0)

    def _place_sash(self, event: tk.Event) -> None:
        """Split the middle once it is first laid out: the side gets room for the whole
        picture when the form keeps at least 55% of the width; later the form takes what
        the window gains or loses (the player may move the split)."""
        if self._sash_placed or event.width <= 1:
            return
        self._sash_placed = True
        side = PREVIEW[0] + 20 + self.side.bar.winfo_reqwidth() + 20
        form = max(self.notebook.winfo_reqwidth(), int(event.width * 0.55))  # every tab shown
        self.panes.sashpos(0, max(form, event.width - side))

    def _fit_tab(self, group: str, width: int) -> None:
        """Fit a tab's fields to its width (``width`` pixels): the names beside the
        fields, or above them when that leaves the fields less than 320 pixels (a narrow
        window); the help and error lines wrap to the room left."""
        rows = self._rows.get(group, [])
        if not rows or self._tab_width.get(group) == width:
            return  # (a change of height only)
        self._tab_width[group] = width
        names = max(name.winfo_reqwidth() for _, name, *_rest in rows) + 12
        inner = width - 24  # the tab's padding
        narrow = inner - names < 320
        if narrow != self._narrow[group]:
            self._narrow[group] = narrow
            for row, name, widget, error, help_label in rows:
                self._grid_field(row, name, widget, error, help_label, narrow=narrow)
        wrap = max(160, inner - 16 if narrow else inner - names - 4)
        if int(str(rows[0][4].cget("wraplength")) or 0) != wrap:
            for *_cells, error, help_label in rows:
                error.configure(wraplength=wrap)
                help_label.configure(wraplength=wrap)

    @staticmethod
    def _grid_field(
        row: int,
        name: ttk.Label,
        widget: tk.Widget,
        error: ttk.Label,
        help_label: ttk.Label,
        *,
        narrow: bool,
    ) -> None:
        """Put one field's widgets on the tab's grid from ``row`` on (four rows): the
        name beside the field, or (``narrow``) above it."""
        if narrow:
            name.grid(row=row, column=0, columnspan=2, sticky="nw", padx=0, pady=(6, 0))
            widget.grid(row=row + 1, column=0, columnspan=2, sticky="ew", padx=(16, 0), pady=(2, 0))
            error.grid(row=row + 2, column=0, columnspan=2, sticky="w", padx=(16, 0))
            help_label.grid(
                row=row + 3, column=0, columnspan=2, sticky="w", padx=(16, 0), pady=(2, 4)
            )
        else:
            name.grid(row=row, column=0, columnspan=1, sticky="nw", padx=(0, 12), pady=(6, 0))
            widget.grid(row=row, column=1, columnspan=1, sticky="ew", padx=0, pady=(6, 0))
            error.grid(row=row + 2, column=1, columnspan=1, sticky="w", padx=0)
            help_label.grid(row=row + 3, column=1, columnspan=1, sticky="w", padx=0, pady=(2, 4))
        _show_if_text(error)

    def _side_resized(self, width: int) -> None:
        """Fit the side's texts and picture to its width (``width`` pixels)."""
        if width == self._side_width:
            return  # (a change of height only)
        self._side_width = width
        room = max(MIN_PREVIEW_WIDTH, width - 20)
        for label in (self.status_label, self.checks_label, self.solve_summary):
            label.configure(wraplength=room)
        beside = self._deal_title.winfo_reqwidth() + self.deal_entry.winfo_reqwidth() + 14
        self._deal_hint.configure(wraplength=max(60, room - beside))
        wanted = max(MIN_PREVIEW_WIDTH, min(PREVIEW[0], room))
        if wanted != self._preview_width:
            self._preview_width = wanted
            if self._preview_job is not None:
                self.after_cancel(self._preview_job)
            self._preview_job = self.after(150, self._redraw_preview)

    def _redraw_preview(self) -> None:
        self._preview_job = None
        self._update_preview()

    def preview_size(self) -> tuple[int, int]:
        """The size in pixels the dealt picture is drawn at: :data:`PREVIEW`, or smaller
        in the same proportions when the side is narrower."""
        width = self._preview_width
        return width, round(width * PREVIEW[1] / PREVIEW[0])

    def _bold(self) -> Any:
        return widgets.scaled_font(self, "TkDefaultFont", 0, bold=True)

    def _add_field(self, frame: ttk.Frame, field: Field, row: int) -> None:
        name = ttk.Label(
            frame, text=field.path + (" *" if field.required else ""), font=self._bold()
        )
        widget: tk.Widget
        if field.kind == "table":
            text = tk.Text(frame, height=16, width=60, undo=True, wrap="none")
            text.bind("<<Modified>>", self._on_text_modified)
            widget = text
            self.options_text = text
        else:
            var = tk.StringVar(self)
            self.vars[field.path] = var
            if field.kind in ("enum", "boolean"):
                values = [""] if not field.required else []
                values += (
                    ["true", "false"]
                    if field.kind == "boolean"
                    else [str(c) if isinstance(c, str) else repr(c) for c in field.choices]
                )
                widget = ttk.Combobox(frame, textvariable=var, values=values, state="readonly")
            elif field.kind == "string" and self._suggestions(field):
                widget = ttk.Combobox(frame, textvariable=var, values=self._suggestions(field))
            else:
                widget = ttk.Entry(frame, textvariable=var, width=50)
            var.trace_add("write", lambda *_a: self._schedule())
        self.widgets[field.path] = widget
        error = ttk.Label(frame, text="", foreground=widgets.ERROR, wraplength=560, justify="left")
        self.errors[field.path] = error
        help_text = field.help or _("(no description in the schema)")
        if field.default is not None:
            shown = field.default if isinstance(field.default, str) else repr(field.default)
            shown = {"True": "true", "False": "false"}.get(shown, shown)
            help_text += " " + _("Default: {value}.").format(value=shown)
        self.helps[field.path] = ttk.Label(
            frame, text=help_text, foreground=widgets.DIM, wraplength=560, justify="left"
        )
        self._grid_field(row, name, widget, error, self.helps[field.path], narrow=False)
        self._rows[field.group].append((row, name, widget, error, self.helps[field.path]))

    def _suggestions(self, field: Field) -> list[str]:
        kind = {"tableau.build": "build", "tableau.run": "build", "tableau.empty": "empty"}.get(
            field.path
        )
        if kind is not None:
            names = {
                ("none" if p.name == "none-empty" else p.name)
                for p in self.registry.predicates.values()
                if p.kind == kind
            }
            return sorted(names)
        if field.path == "deal.method":
            return ["pysolfc", *sorted(self.registry.deal_methods)]
        return []

    # --- the form's content --------------------------------------------------------------

    def _load(self, data: Mapping[str, Any]) -> None:
        texts = to_texts(data, self.fields.values())
        for path, text in texts.items():
            if path in self.vars:
                self.vars[path].set(text)
            elif self.fields[path].kind == "table":
                self.options_text.delete("1.0", "end")
                self.options_text.insert("1.0", text)
                self.options_text.edit_modified(False)
        self._update_where()

    def texts(self) -> dict[str, str]:
        """The text of every field."""
        texts = {path: var.get() for path, var in self.vars.items()}
        for path, field in self.fields.items():
            if field.kind == "table":
                texts[path] = self.options_text.get("1.0", "end-1c")
        return texts

    def set_text(self, path: str, text: str) -> None:
        """Put ``text`` into a field (as typing it would)."""
        if path in self.vars:
            self.vars[path].set(text)
        else:
            self.options_text.delete("1.0", "end")
            self.options_text.insert("1.0", text)
            self._schedule()

    def data(self) -> dict[str, Any]:
        """The variant table the form describes (fields whose text is no value keep the
        value they had when the form was opened)."""
        return from_texts(self.texts(), self.fields.values(), self.original)[0]

    def toml_text(self) -> str:
        """The form as the TOML text Save writes."""
        import tomli_w

        return tomli_w.dumps(self.data())

    def _on_text_modified(self, _event: object = None) -> None:
        if self.options_text.edit_modified():
            self.options_text.edit_modified(False)
            self._schedule()

    # --- validation ----------------------------------------------------------------------

    def _schedule(self) -> None:
        if self._validate_job is not None:
            self.after_cancel(self._validate_job)
        self._validate_job = self.after(_VALIDATE_DELAY_MS, self.validate)

    def _source(self) -> str:
        if self.path is not None:
            return str(self.path)
        return f"{self.vars['id'].get().strip() or 'new-game'}.toml"

    def validate(self) -> VariantDefinition | None:
        """Check the form now (as a moment after typing does); show each problem beside
        its field, redraw the picture and start the quick checks when all is well.

        :return: the valid variant, or ``None``.
        """
        self._validate_job = None
        if not self.winfo_exists():
            return None
        data, problems = from_texts(self.texts(), self.fields.values(), self.original)
        definition: VariantDefinition | None = None
        if not problems:
            try:
                definition = parse_variant(
                    self.toml_text(),
                    self._source(),
                    plugin=USER_PLUGIN,
                    predicates=self.registry.predicates,
                    deal_methods=self.registry.deal_methods,
                )
                self._check_id(definition)
            except VariantError as exc:
                problems[self._field_for(exc.key_path)] = (
                    f"{exc.key_path}: {exc.message}" if exc.key_path else exc.message
                )
                definition = None
        self.problems = problems
        for path, label in self.errors.items():
            label.configure(text=problems.get(path, ""))
            _show_if_text(label)
        changed = (
            definition is None
            or self.definition is None
            or (dict(definition.data) != dict(self.definition.data))
        )
        self.definition = definition
        self._update_where()
        if definition is None:
            path, message = next(iter(problems.items()))
            group = self._tab_title(path)
            if group:
                text = _("Not valid yet (tab {tab}): {message}").format(tab=group, message=message)
            else:
                text = _("Not valid yet: {message}").format(message=message)
            self.status_label.configure(text=text, foreground=widgets.ERROR)
            self.save_button.state(["disabled"])
            self.play_button.state(["disabled"])
            self.solve_button.state(["disabled"])
            self._stop_checks()
            self.checks_label.configure(text=_("Waiting for a valid file."))
            return None
        self.status_label.configure(
            text=ngettext(
                "Valid: {name} ({id}), {count} deck(s).",
                "Valid: {name} ({id}), {count} deck(s).",
                definition.decks,
            ).format(name=definition.name, id=definition.id, count=definition.decks),
            foreground="",
        )
        for button in (self.save_button, self.play_button):
            button.state(["!disabled"])
        if not self.solving:
            self.solve_button.state(["!disabled"])
        self._update_preview()
        if changed:
            self._start_checks()
        return definition

    def _check_id(self, definition: VariantDefinition) -> None:
        other = self.registry.variants.get(definition.id)
        if other is None or (self.path is not None and _same(other.source, self.path)):
            return
        if other.plugin == FILE_PLUGIN and other.source == self._unsaved_source():
            return  # this editor's own unsaved game, played before
        raise VariantError(
            self._source(),
            "id",
            _("{id} is already the id of {name} (plugin {plugin}): choose another").format(
                id=repr(definition.id), name=other.name, plugin=repr(other.plugin)
            ),
        )

    def _tab_title(self, path: str) -> str:
        """The title of the tab showing the field ``path`` (``""`` for no field)."""
        if path not in self.fields:
            return ""
        title = dict(GROUPS).get(self.fields[path].group, "")
        return _(title) if title else ""

    def _field_for(self, key_path: str) -> str:
        """The field that shows the loader's message about ``key_path``."""
        if key_path in self.fields:
            return key_path
        best = ""
        for path in self.fields:
            if key_path.startswith(path + ".") and len(path) > len(best):
                best = path
        if best:
            return best
        below = [p for p in self.fields if p.startswith(key_path + ".")] if key_path else []
        return below[0] if below else "id"

    def _update_where(self) -> None:
        vid = self.vars["id"].get().strip() or "?"
        name = self.vars["name"].get().strip() or _("(no name)")
        self.heading.configure(text=f"{name}  ({vid})")
        self.title(_("Variant workshop: {name}").format(name=name))
        target = self.save_path()
        self.where_label.configure(
            text=_("Save writes {path}.").format(path=target) + " " + _(COMMENTS_NOTE)
        )

    def save_path(self) -> Path:
        """Where Save writes: the file being edited, or ``ID.toml`` in the folder."""
        if self.path is not None:
            return self.path
        from solitaire_core.persistence.paths import user_variants_dir

        folder = self.folder if self.folder is not None else user_variants_dir()
        return folder / f"{self.vars['id'].get().strip() or 'new-game'}.toml"

    # --- the picture ---------------------------------------------------------------------

    def deal_number(self) -> int:
        """The deal number typed (1 when the field is empty or not a number >= 1)."""
        text = self.deal_var.get().strip()
        return int(text) if text.isdigit() and int(text) >= 1 else 1

    def _update_preview(self) -> None:
        if self.definition is None:
            return
        try:
            rules = self.definition.resolve()
            state = deal(rules, self.deal_number(), self.registry.deal_methods)
            image = render_preview(state, *self.preview_size())
        except SolitaireError as exc:
            self.preview_label.configure(image="", text=_("No picture: {error}").format(error=exc))
            self.preview_image = None
            return
        self.preview_image = image
        self._photo = ImageTk.PhotoImage(image, master=self)
        self.preview_label.configure(image=self._photo, text="")

    # --- background work -----------------------------------------------------------------

    def _start_checks(self) -> None:
        from solitaire_core.testing.quick import quick_checks

        self._stop_checks()
        assert self.definition is not None
        rules = self.definition.resolve()
        cancel = threading.Event()
        self._check_cancel = cancel
        self.check_results = []
        self.checks_running = True
        self.checks_label.configure(text=_("Running: deals, 300 random moves, perft depth 2..."))
        results = self._results

        def run() -> None:
            try:
                quick_checks(
                    rules, cancel=cancel, on_check=lambda r: results.put(("check", (cancel, r)))
                )
            finally:
                results.put(("checks-done", cancel))

        threading.Thread(target=run, name="quick-checks", daemon=True).start()

    def _stop_checks(self) -> None:
        if self._check_cancel is not None:
            self._check_cancel.set()
            self._check_cancel = None
        self.checks_running = False

    def solve(self) -> None:
        """Ask the solver about deals 1-20 in the background (the button's command)."""
        if self.definition is None or self.solving:
            return
        from solitaire_core.solver import budget_for, solve_deal

        rules = self.definition.resolve()
        cancel = threading.Event()
        self._solve_cancel = cancel
        self.solving = True
        self.solve_results = {}
        self.solve_button.state(["disabled"])
        self.solve_summary.configure(
            text=_("Solving deals 1-{last}...").format(last=SOLVE_DEALS[-1])
        )
        self._set_solve_text("")
        results = self._results

        def run() -> None:
            try:
                for number in SOLVE_DEALS:
                    if cancel.is_set():
                        break
                    try:
                        result = solve_deal(
                            rules,
                            number,
                            cancel=cancel,
                            timeout=SOLVE_BUDGET["timeout"],
                            max_states=budget_for(rules, int(SOLVE_BUDGET["max_states"])),
                        )
                    except SolitaireError as exc:
                        results.put(("solve-error", (number, str(exc))))
                        break
                    results.put(("solved", (number, result)))
            finally:
                results.put(("solve-done", cancel))

        threading.Thread(target=run, name="editor-solver", daemon=True).start()

    def _poll(self) -> None:
        self._poll_job = None
        while True:
            try:
                kind, value = self._results.get_nowait()
            except queue.Empty:
                break
            self._receive(kind, value)
        if self.winfo_exists():
            self._poll_job = self.after(_POLL_MS, self._poll)

    def _receive(self, kind: str, value: Any) -> None:
        if kind == "check":
            run, result = value
            if run is not self._check_cancel:
                return  # the checks of a file since changed
            self.check_results.append(result)
            self._show_checks()
        elif kind == "checks-done":
            if value is self._check_cancel:
                self.checks_running = False
                self._check_cancel = None
                self._show_checks(done=True)
        elif kind == "solved":
            number, result = value
            self.solve_results[number] = result
            self._show_solved()
        elif kind == "solve-error":
            number, message = value
            self.solve_summary.configure(
                text=_("Deal {number}: {message}").format(number=number, message=message)
            )
        elif kind == "solve-done":
            if value is self._solve_cancel:
                self.solving = False
                self._solve_cancel = None
                self._show_solved(done=True)
                if self.definition is not None:
                    self.solve_button.state(["!disabled"])

    def _show_checks(self, done: bool = False) -> None:
        ok, bad = pgettext("quick check", "ok"), pgettext("quick check", "FAILED")
        lines = [f"{ok if r.ok else bad}  {r.name}: {r.detail}" for r in self.check_results]
        if done:
            failed = sum(not r.ok for r in self.check_results)
            lines.append(
                _("All quick checks passed.")
                if not failed
                else ngettext("{count} failed.", "{count} failed.", failed).format(count=failed)
            )
        self.checks_label.configure(
            text="\n".join(lines) or _("Running..."),
            foreground=widgets.ERROR if any(not r.ok for r in self.check_results) else "",
        )

    def _show_solved(self, done: bool = False) -> None:
        from solitaire_core.solver import Verdict

        counts = {v: 0 for v in Verdict}
        lines = []
        for number, result in sorted(self.solve_results.items()):
            counts[result.verdict] += 1
            if result.verdict is Verdict.WINNABLE:
                count = len(result.moves)
                what = ngettext(
                    "winnable in {count} moves", "winnable in {count} moves", count
                ).format(count=count)
            elif result.verdict is Verdict.UNWINNABLE:
                what = _("unwinnable")
            else:
                what = _("undecided ({reason} ran out)").format(reason=result.reason)
            lines.append(
                ngettext(
                    "Deal {number}: {verdict}, {count} positions",
                    "Deal {number}: {verdict}, {count} positions",
                    result.positions,
                ).format(number=number, verdict=what, count=result.positions)
            )
        total = len(self.solve_results)
        summary = _(
            "{winnable} of {total} winnable, {unwinnable} unwinnable, {undecided} undecided"
        ).format(
            winnable=counts[Verdict.WINNABLE],
            total=total,
            unwinnable=counts[Verdict.UNWINNABLE],
            undecided=counts[Verdict.UNDECIDED],
        )
        if counts[Verdict.WINNABLE] and done:
            summary = _("{summary}: the game can be won.").format(summary=summary)
        elif done and total and not counts[Verdict.WINNABLE]:
            summary = _("{summary}: no deal was shown winnable; the game may be too hard.").format(
                summary=summary
            )
        elif not done:
            summary = _("{summary} (solving deal {number}...)").format(
                summary=summary, number=total + 1
            )
        self.solve_summary.configure(text=summary)
        self._set_solve_text("\n".join(lines))

    def _set_solve_text(self, text: str) -> None:
        self.solve_text.configure(state="normal")
        self.solve_text.delete("1.0", "end")
        self.solve_text.insert("1.0", text)
        self.solve_text.configure(state="disabled")

    # --- actions -------------------------------------------------------------------------

    def _unsaved_source(self) -> str:
        return f"(unsaved, in the variant editor) {id(self)}"

    def save(self) -> Path | None:
        """Write the file (the button's command).

        :return: the path written, or ``None`` when the form is not valid or the file
            would replace another game's file (the status line says why, scrolled into
            view).
        """
        definition = self.validate()
        if definition is None:
            self.side.see(self.status_label)
            return None
        target = self.save_path()
        if target.exists() and target != self.path:
            self.status_label.configure(
                text=_("{path} exists already: choose another id, or open that file.").format(
                    path=target
                ),
                foreground=widgets.ERROR,
            )
            self.side.see(self.status_label)
            return None
        from solitaire_core.persistence import atomic_write_text

        text = self.toml_text()
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(target, text)
        except OSError as exc:
            self.status_label.configure(
                text=_("Could not save {path}: {error}").format(path=target, error=exc),
                foreground=widgets.ERROR,
            )
            self.side.see(self.status_label)
            return None
        saved = parse_variant(
            text,
            str(target),
            plugin=USER_PLUGIN,
            predicates=self.registry.predicates,
            deal_methods=self.registry.deal_methods,
        )
        for vid, other in list(self.registry.variants.items()):
            if _same(other.source, target) or other.source == self._unsaved_source():
                del self.registry.variants[vid]  # the same file under its old id
        self.registry.variants[saved.id] = saved
        self.path = target
        self._saved_texts = self.texts()
        self.original = copy.deepcopy(dict(saved.data))
        self.definition = saved
        self._update_where()
        self.status_label.configure(text=_("Saved {path}.").format(path=target), foreground="")
        if self.on_saved is not None:
            self.on_saved(saved)
        return target

    def play(self) -> bool:
        """Play the game at once, saved or not (the button's command).

        :return: whether the game was handed to ``on_play``.
        """
        definition = self.validate()
        if definition is None or self.on_play is None:
            return False
        current = self.registry.variants.get(definition.id)
        if (
            current is not None
            and self.path is not None
            and _same(current.source, self.path)
            and dict(current.data) == dict(definition.data)
        ):
            definition = current  # saved as it is
        else:  # play the form's variant under its id for this session
            definition = parse_variant(
                self.toml_text(),
                self._unsaved_source(),
                plugin=FILE_PLUGIN,
                predicates=self.registry.predicates,
                deal_methods=self.registry.deal_methods,
            )
        self.registry.variants[definition.id] = definition
        self.on_play(definition.id, definition.default_options(), self.deal_number())
        return True

    def has_unsaved_changes(self) -> bool:
        """Whether any field's text differs from the file as opened or last saved (a
        change typed and then undone is no change; the deal number is not the file's)."""
        return self.texts() != self._saved_texts

    def close(self) -> bool:
        """Close the window (the Close button, the window's close box): at once when
        nothing changed since the file was opened or saved, else after asking
        (:class:`UnsavedChangesDialog`): Save (then close, unless saving failed: the
        status line says why), Don't save (close), or Cancel (keep editing). When the
        form is not valid it cannot be saved: the question offers Discard or Cancel.

        :return: whether the window is closed. ``False`` when the player cancelled,
            saving failed, or (not ``modal``) the question waits for its answer.
        """
        if self.question is not None and self.question.winfo_exists():
            self.question.lift()
            self.question.focus_set()
            return False
        if not self.has_unsaved_changes():
            self.destroy()
            return True
        definition = self.validate()
        problem = None
        if definition is None and self.problems:
            path, message = next(iter(self.problems.items()))
            group = self._tab_title(path)
            problem = (
                _("Tab {tab}: {message}").format(tab=group, message=message) if group else message
            )
        name = self.vars["name"].get().strip() or self.vars["id"].get().strip() or _("this game")
        question = UnsavedChangesDialog(
            self,
            name=name,
            target=self.save_path(),
            problem=problem,
            on_save=self._save_and_close,
            on_discard=self.destroy,
            wait=self.modal,
        )
        self.question = question
        question.show(question.choice_buttons[question.default])  # modal: waits here
        if self.modal and self.question is question:
            self.question = None
        return not self.winfo_exists()

    def _save_and_close(self) -> None:
        self.question = None
        if self.save() is not None:
            self.destroy()  # else the status line says why

    def destroy(self) -> None:
        """Close the window without asking and stop its background work."""
        self._stop_checks()
        if self._solve_cancel is not None:
            self._solve_cancel.set()
        for job in (self._validate_job, self._poll_job, self._preview_job):
            if job is not None:
                try:
                    self.after_cancel(job)
                except tk.TclError:
                    pass
        self._validate_job = self._poll_job = self._preview_job = None
        super().destroy()


class UnsavedChangesDialog(widgets.Dialog):
    """The question the editor asks before closing with changes not saved.

    With a valid form: "Save the changes to NAME?" and the buttons Save (the default),
    Don't save and Cancel. With a form that is not valid (it cannot be saved): "Discard
    the changes to NAME?", the first problem, and Discard changes and Cancel (the
    default). Cancel, Escape and the close box keep the editor open with its changes.

    :param parent: the editor.
    :param name: the game's name as the form has it.
    :param target: the file Save writes.
    :param problem: the form's first problem (``"Tab Deal: deal: places 62 cards..."``), or ``None``
        when the form is valid.
    :param on_save: called after the dialog closed when Save was pressed.
    :param on_discard: called after the dialog closed when Don't save / Discard was
        pressed.
    :param wait: modal (:meth:`show` returns when answered) when true.

    Built hidden: :meth:`show` shows it. Attributes for tests: ``message`` (the question's
    text below the heading), ``choice_buttons`` (``"save"``, ``"discard"``, ``"cancel"``
    -> button) and ``default`` (the choice Return presses).
    """

    def __init__(
        self,
        parent: tk.Misc,
        *,
        name: str,
        target: Path,
        problem: str | None,
        on_save: Callable[[], Any],
        on_discard: Callable[[], Any],
        wait: bool,
    ) -> None:
        super().__init__(parent, _("Unsaved changes"), wait=wait)
        self._callbacks = {"save": on_save, "discard": on_discard}
        if problem is None:
            title = _("Save the changes to {name}?").format(name=name)
            self.message = _(
                "Your changes to {name} are not saved. Save writes them to {path}; "
                "Don't save closes the workshop and loses them."
            ).format(name=name, path=target)
            specs = [("save", _("Save")), ("discard", _("Don't save")), ("cancel", _("Cancel"))]
            default = "save"
        else:
            title = _("Discard the changes to {name}?").format(name=name)
            self.message = _(
                "Your changes to {name} cannot be saved while the game is not valid.\n"
                "{problem}\n\nDiscard them and close the workshop, or Cancel to go on "
                "editing."
            ).format(name=name, problem=problem)
            specs = [("discard", _("Discard changes")), ("cancel", _("Cancel"))]
            default = "cancel"
        self.heading(title)
        ttk.Label(self.body, text=self.message, wraplength=440, justify="left").grid(
            row=1, column=0, sticky="w"
        )
        self.default = default
        self.choice_buttons = self.buttons(specs, default=default, row=2)


def _show_if_text(label: ttk.Label) -> None:
    """Show a gridded label only while it has a text (an empty error line takes no
    room)."""
    if str(label.cget("text")):
        label.grid()
    else:
        label.grid_remove()


def _same(source: str, path: Path) -> bool:
    try:
        return Path(source).resolve() == Path(path).resolve()
    except (OSError, ValueError):
        return False
