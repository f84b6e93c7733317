"""A deliberately broken towers-solitaire plugin package (a test fixture, not a game).

Installing it must not stop anything else from working: ``solitaire list`` reports each
problem with the plugin's name and the reason, and every other variant still loads.
Block it with ``SOLITAIRE_DISABLE_PLUGINS=broken-hooks,broken-import``.
"""
