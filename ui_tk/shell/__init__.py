"""The app shell: the main window (app) with its menus, toolbar and status bar, the
actions' shared state (actions), hints and the demo (assist), undo to winnable (rewind),
saved games and settings on disk (persist), what features see of the app (host) and the
``solitaire play`` entry point (cli).

The top room: it imports every other one, and none imports it back (features receive
the app as a :class:`solitaire_tk.shell.host.GameHost`).
"""
