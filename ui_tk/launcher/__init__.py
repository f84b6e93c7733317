"""The launcher: the list of games, their previews and options, the deal to play
(window).

Imports: :mod:`solitaire_tk.editor`, :mod:`solitaire_tk.dialogs`,
:mod:`solitaire_tk.table` and below; never the app shell.
"""
