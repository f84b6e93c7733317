"""The table: where each pile lies for a window's size (layout), the canvas that draws
a game state and turns clicks, drags and keys into moves (view), the keyboard's focus
(focus), empty piles' marks (marks), the win's celebration (celebrate) and the
launcher's and editor's thumbnails of a table (preview).

Imports: :mod:`solitaire_tk.faces` and the shared modules; never a dialog, the launcher,
the editor or the app shell.
"""
