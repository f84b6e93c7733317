"""The rules page of each built-in variant, ``<id>.md``, as package data.

pyproject.toml installs this folder as the package ``solitaire_variants.pages``, so the
game's Rules dialog finds the pages with :func:`importlib.resources.files` in an installed
wheel as in a source checkout. This file holds no code.
"""
