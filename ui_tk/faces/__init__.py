"""Card faces, backs, decks and table themes: the built-in faces drawn with Pillow
(cardfaces), SVG decks rendered with CairoSVG and the themes that pair a deck with felt
colours (themes, appearance), and the toolbar's vector icons (icons).

Imports: only the shared modules of :mod:`solitaire_tk` (widgets, tooltip, keys).
"""
