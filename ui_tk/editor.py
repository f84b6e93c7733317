"""The variant editor: write a game in a form, see it dealt, check it, save it, play it.

A :class:`VariantEditor` is a ``Toplevel`` window. On the left, one tab per group of the
vocabulary (Game, Layout, Deal, Building, Moves, Foundations, Autoplay, Options), with a
field for every key of the JSON Schema (:mod:`solitaire_tk.editor_form`): its name, the
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
comments in the file are not kept (the window says so).
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
from solitaire_core.plugins import USER_PLUGIN, Registry
from solitaire_core.uservariants import FILE_PLUGIN
from solitaire_core.variant import VariantDefinition, parse_variant

from . import widgets
from .editor_form import GROUPS, Field, form_fields, from_texts, to_texts
from .preview import render_preview

__all__ = ["VariantEditor", "copy_for_editing", "new_game_data"]

_VALIDATE_DELAY_MS = 300  # wait this long after the last key press
_POLL_MS = 100  # how often the window looks at its background work
PREVIEW = (470, 330)
SOLVE_DEALS = tuple(range(1, 21))
SOLVE_BUDGET = {"max_states": 200_000, "timeout": 10.0}
COMMENTS_NOTE = "Saving writes the same data back, but comments in the file are not kept."

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

    Attributes for tests: ``fields`` (:class:`~solitaire_tk.editor_form.Field` by path),
    ``vars`` (path -> StringVar; the Options table's text is in ``options_text``),
    ``widgets`` (path -> entry widget), ``errors`` (path -> error label), ``helps`` (path ->
    help label), ``notebook`` and
    ``tabs`` (group key -> frame), ``deal_var``, ``preview_image``, ``status_label``,
    ``checks_label``, ``solve_text``, ``save_button``, ``play_button``, ``solve_button``,
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
    ) -> None:
        super().__init__(master)
        self.registry = registry
        self.original: dict[str, Any] = copy.deepcopy(dict(data))
        self.path = path
        self.folder = folder
        self.on_play = on_play
        self.on_saved = on_saved
        self.fields: dict[str, Field] = {f.path: f for f in form_fields()}
        self.vars: dict[str, tk.StringVar] = {}
        self.widgets: dict[str, tk.Widget] = {}
        self.errors: dict[str, ttk.Label] = {}
        self.helps: dict[str, ttk.Label] = {}
        self.tabs: dict[str, ttk.Frame] = {}
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
        self.title("Variant workshop")
        self.geometry("1320x900")
        self._build()
        self._load(self.original)
        self.protocol("WM_DELETE_WINDOW", self.destroy)
        self.validate()
        self._poll_job = self.after(_POLL_MS, self._poll)

    # --- building ------------------------------------------------------------------------

    def _build(self) -> None:
        outer = ttk.Frame(self, padding=(14, 10, 14, 10))
        outer.pack(fill="both", expand=True)
        outer.columnconfigure(0, weight=1)
        outer.rowconfigure(1, weight=1)
        self.heading = ttk.Label(
            outer, text="", font=widgets.scaled_font(self, "TkHeadingFont", 4, bold=True)
        )
        self.heading.grid(row=0, column=0, columnspan=2, sticky="w", pady=(0, 8))
        self.notebook = ttk.Notebook(outer)
        self.notebook.grid(row=1, column=0, sticky="nsew")
        for key, title in GROUPS:
            frame = ttk.Frame(self.notebook, padding=(12, 10, 12, 10))
            frame.columnconfigure(1, weight=1)
            self.notebook.add(frame, text=title)
            self.tabs[key] = frame
        rows: dict[str, int] = {}
        for field in self.fields.values():
            row = rows.get(field.group, 0)
            rows[field.group] = row + 3
            self._add_field(self.tabs[field.group], field, row)

        side = ttk.Frame(outer, padding=(16, 0, 0, 0))
        side.grid(row=1, column=1, sticky="nsew")
        side.columnconfigure(0, weight=1)
        deal_row = ttk.Frame(side)
        deal_row.grid(row=0, column=0, sticky="w")
        ttk.Label(deal_row, text="Deal number:").pack(side="left")
        self.deal_var = tk.StringVar(self, value="1")
        self.deal_entry = ttk.Entry(deal_row, textvariable=self.deal_var, width=10)
        self.deal_entry.pack(side="left", padx=(6, 8))
        ttk.Label(deal_row, text="as dealt, before autoplay", foreground=widgets.DIM).pack(
            side="left"
        )
        self.deal_var.trace_add("write", lambda *_a: self._schedule())
        self.preview_label = ttk.Label(side, borderwidth=0)
        self.preview_label.grid(row=1, column=0, sticky="w", pady=(6, 8))
        self.status_label = ttk.Label(side, text="", wraplength=PREVIEW[0], justify="left")
        self.status_label.grid(row=2, column=0, sticky="w")
        ttk.Label(side, text="Quick checks", font=self._bold()).grid(
            row=3, column=0, sticky="w", pady=(10, 0)
        )
        self.checks_label = ttk.Label(side, text="", wraplength=PREVIEW[0], justify="left")
        self.checks_label.grid(row=4, column=0, sticky="w")
        ttk.Label(side, text="Solver, deals 1-20", font=self._bold()).grid(
            row=5, column=0, sticky="w", pady=(10, 0)
        )
        self.solve_summary = ttk.Label(
            side, text="Not asked yet.", wraplength=PREVIEW[0], justify="left"
        )
        self.solve_summary.grid(row=6, column=0, sticky="w")
        self.solve_text = tk.Text(side, height=8, width=60, relief="flat", wrap="word")
        self.solve_text.grid(row=7, column=0, sticky="nsew", pady=(4, 0))
        self.solve_text.configure(state="disabled")
        side.rowconfigure(7, weight=1)

        self.where_label = ttk.Label(outer, text="", foreground=widgets.DIM)
        self.where_label.grid(row=2, column=0, columnspan=2, sticky="w", pady=(8, 0))
        bar = ttk.Frame(outer)
        bar.grid(row=3, column=0, columnspan=2, sticky="e", pady=(6, 0))
        self.close_button = ttk.Button(bar, text="Close", command=self.destroy)
        self.close_button.pack(side="right")
        self.solve_button = ttk.Button(bar, text="Solve deals 1-20", command=self.solve)
        self.solve_button.pack(side="right", padx=(0, 8))
        self.play_button = ttk.Button(bar, text="Play", command=self.play)
        self.play_button.pack(side="right", padx=(0, 8))
        self.save_button = ttk.Button(bar, text="Save", command=self.save, default="active")
        self.save_button.pack(side="right", padx=(0, 8))

    def _bold(self) -> Any:
        return widgets.scaled_font(self, "TkDefaultFont", 0, bold=True)

    def _add_field(self, frame: ttk.Frame, field: Field, row: int) -> None:
        name = field.path + (" *" if field.required else "")
        ttk.Label(frame, text=name, font=self._bold()).grid(
            row=row, column=0, sticky="nw", padx=(0, 12), pady=(6, 0)
        )
        widget: tk.Widget
        if field.kind == "table":
            text = tk.Text(frame, height=16, width=70, undo=True, wrap="none")
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
        widget.grid(row=row, column=1, sticky="ew", pady=(6, 0))
        self.widgets[field.path] = widget
        error = ttk.Label(frame, text="", foreground=widgets.ERROR, wraplength=560)
        error.grid(row=row + 1, column=1, sticky="w")
        self.errors[field.path] = error
        help_text = field.help or "(no description in the schema)"
        if field.default is not None:
            shown = field.default if isinstance(field.default, str) else repr(field.default)
            shown = {"True": "true", "False": "false"}.get(shown, shown)
            help_text += f" Default: {shown}."
        self.helps[field.path] = ttk.Label(
            frame, text=help_text, foreground=widgets.DIM, wraplength=560, justify="left"
        )
        self.helps[field.path].grid(row=row + 2, column=1, sticky="w", pady=(0, 4))

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
        changed = (
            definition is None
            or self.definition is None
            or (dict(definition.data) != dict(self.definition.data))
        )
        self.definition = definition
        self._update_where()
        if definition is None:
            path, message = next(iter(problems.items()))
            group = dict(GROUPS).get(self.fields[path].group, "") if path in self.fields else ""
            where = f" (tab {group})" if group else ""
            self.status_label.configure(
                text=f"Not valid yet{where}: {message}", foreground=widgets.ERROR
            )
            self.save_button.state(["disabled"])
            self.play_button.state(["disabled"])
            self.solve_button.state(["disabled"])
            self._stop_checks()
            self.checks_label.configure(text="Waiting for a valid file.")
            return None
        self.status_label.configure(
            text=f"Valid: {definition.name} ({definition.id}), {definition.decks} deck(s).",
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
            f"{definition.id!r} is already the id of {other.name} (plugin {other.plugin!r}): "
            "choose another",
        )

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
        name = self.vars["name"].get().strip() or "(no name)"
        self.heading.configure(text=f"{name}  ({vid})")
        self.title(f"Variant workshop: {name}")
        target = self.save_path()
        self.where_label.configure(text=f"Save writes {target}. {COMMENTS_NOTE}")

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
            image = render_preview(state, *PREVIEW)
        except SolitaireError as exc:
            self.preview_label.configure(image="", text=f"No picture: {exc}")
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
        self.checks_label.configure(text="Running: deals, 300 random moves, perft depth 2...")
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
        from solitaire_core.solver import solve_deal

        rules = self.definition.resolve()
        cancel = threading.Event()
        self._solve_cancel = cancel
        self.solving = True
        self.solve_results = {}
        self.solve_button.state(["disabled"])
        self.solve_summary.configure(text=f"Solving deals 1-{SOLVE_DEALS[-1]}...")
        self._set_solve_text("")
        results = self._results

        def run() -> None:
            try:
                for number in SOLVE_DEALS:
                    if cancel.is_set():
                        break
                    try:
                        result = solve_deal(rules, number, cancel=cancel, **SOLVE_BUDGET)
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
            self.solve_summary.configure(text=f"Deal {number}: {message}")
        elif kind == "solve-done":
            if value is self._solve_cancel:
                self.solving = False
                self._solve_cancel = None
                self._show_solved(done=True)
                if self.definition is not None:
                    self.solve_button.state(["!disabled"])

    def _show_checks(self, done: bool = False) -> None:
        lines = [f"{'ok' if r.ok else 'FAILED'}  {r.name}: {r.detail}" for r in self.check_results]
        if done:
            failed = sum(not r.ok for r in self.check_results)
            lines.append("All quick checks passed." if not failed else f"{failed} failed.")
        self.checks_label.configure(
            text="\n".join(lines) or "Running...",
            foreground=widgets.ERROR if any(not r.ok for r in self.check_results) else "",
        )

    def _show_solved(self, done: bool = False) -> None:
        from solitaire_core.solver import Verdict

        counts = {v: 0 for v in Verdict}
        lines = []
        for number, result in sorted(self.solve_results.items()):
            counts[result.verdict] += 1
            if result.verdict is Verdict.WINNABLE:
                what = f"winnable in {len(result.moves)} moves"
            elif result.verdict is Verdict.UNWINNABLE:
                what = "unwinnable"
            else:
                what = f"undecided ({result.reason} ran out)"
            lines.append(f"Deal {number}: {what}, {result.positions} positions")
        total = len(self.solve_results)
        summary = (
            f"{counts[Verdict.WINNABLE]} of {total} winnable, "
            f"{counts[Verdict.UNWINNABLE]} unwinnable, {counts[Verdict.UNDECIDED]} undecided"
        )
        if counts[Verdict.WINNABLE] and done:
            summary += ": the game can be won."
        elif done and total and not counts[Verdict.WINNABLE]:
            summary += ": no deal was shown winnable; the game may be too hard."
        elif not done:
            summary += f" (solving deal {total + 1}...)"
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
            would replace another game's file (the status line says why).
        """
        definition = self.validate()
        if definition is None:
            return None
        target = self.save_path()
        if target.exists() and target != self.path:
            self.status_label.configure(
                text=f"{target} exists already: choose another id, or open that file.",
                foreground=widgets.ERROR,
            )
            return None
        from solitaire_core.persistence import atomic_write_text

        text = self.toml_text()
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(target, text)
        except OSError as exc:
            self.status_label.configure(
                text=f"Could not save {target}: {exc}", foreground=widgets.ERROR
            )
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
        self.original = copy.deepcopy(dict(saved.data))
        self.definition = saved
        self._update_where()
        self.status_label.configure(text=f"Saved {target}.", foreground="")
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

    def destroy(self) -> None:
        """Close the window and stop its background work."""
        self._stop_checks()
        if self._solve_cancel is not None:
            self._solve_cancel.set()
        for job in (self._validate_job, self._poll_job):
            if job is not None:
                try:
                    self.after_cancel(job)
                except tk.TclError:
                    pass
        self._validate_job = self._poll_job = None
        super().destroy()


def _same(source: str, path: Path) -> bool:
    try:
        return Path(source).resolve() == Path(path).resolve()
    except (OSError, ValueError):
        return False
