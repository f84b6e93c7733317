"""Plugin ``broken-import``: fails at import time, like a plugin whose dependency is
missing."""

raise ImportError("deliberately broken: this plugin's module cannot be imported")
