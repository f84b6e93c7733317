"""``python -m solitaire_core`` runs the ``solitaire`` command."""

import sys

from .cli import main

sys.exit(main())
