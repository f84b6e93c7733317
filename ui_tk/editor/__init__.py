"""The variant editor: its window (window) and the form it builds from the variant
file's schema (form).

Imports: :mod:`solitaire_tk.dialogs`, :mod:`solitaire_tk.table` (the preview), the faces
and the shared modules; never the launcher or the app shell.
"""
