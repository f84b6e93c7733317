"""The game's dialogs: the shared ones (common: win, leave, select deal, about,
keyboard shortcuts), the Rules window (rules), the statistics window (stats) and its
Progression chart (progress_chart).

Imports: :mod:`solitaire_tk.table` (for marks), :mod:`solitaire_tk.faces` and the shared
modules; never the launcher, the editor or the app shell.
"""
