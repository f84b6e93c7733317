"""The player's language: translations of what the program shows, through gettext.

Every string a player sees is written in English in the code and passed through
:func:`gettext` (imported as ``_``), :func:`ngettext` for plural forms, or marked with
:func:`N_` where it must stay English until shown (a table of labels). The translations
are GNU gettext catalogs, ``solitaire_core/locale/<language>/LC_MESSAGES/towers-solitaire.po``,
read with Babel when first needed (no compiled ``.mo`` file to keep in step); the
template, ``towers-solitaire.pot``, is extracted from the code with Babel (``pybabel
extract -F babel.cfg``; tests/test_translations.py checks that every catalog translates
every string the code marks).

The language is chosen once, before the window is built: :func:`set_language` with a
code from :data:`LANGUAGES`, or ``None`` to follow the environment as gettext does
(``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``). A language without a catalog, and
English, show the English text. Variant names and the rules pages stay English for now.
"""

from __future__ import annotations

import gettext as _gettext
import io
import os
from pathlib import Path

__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "LOCALE_DIR",
    "N_",
    "current_language",
    "environment_language",
    "gettext",
    "ngettext",
    "pgettext",
    "set_language",
    "translation",
]

DOMAIN = "towers-solitaire"
"""The gettext domain: the catalogs' file name."""

LOCALE_DIR = Path(__file__).parent / "locale"
"""Where the catalogs are: ``LOCALE_DIR/<language>/LC_MESSAGES/DOMAIN.po``."""

LANGUAGES: dict[str, str] = {
    "en": "English",
    "de": "Deutsch",
    "es": "Español",
    "fr": "Français",
}
"""The languages the program speaks: code -> the language's own name for itself (what
the Options menu lists)."""

_translations: _gettext.NullTranslations = _gettext.NullTranslations()
_language = "en"


def environment_language() -> str:
    """The language gettext would pick from the environment: the first of ``LANGUAGE``
    (a colon-separated list), ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is set, cut
    to its language code (``de_AT.UTF-8`` -> ``de``); the first of ``LANGUAGE``'s list we
    have a catalog for. ``"en"`` when none is set or none is ours."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable, "")
        if not value:
            continue
        for item in value.split(":"):
            code = item.split(".")[0].split("@")[0].split("_")[0].lower()
            if code in LANGUAGES:
                return code
        if variable != "LANGUAGE":
            return "en"  # the first set of the others decides (C, POSIX: English)
    return "en"


def translation(code: str) -> _gettext.NullTranslations:
    """The translations of language ``code`` (a key of :data:`LANGUAGES`) read from its
    ``.po`` catalog, without making it the language spoken (English, or a missing
    catalog: none, the English text). ``translation("fr").gettext(message)``."""
    path = LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"
    if code == "en" or not path.is_file():
        return _gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with path.open("rb") as file:
        catalog = read_po(file, locale=code)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return _gettext.GNUTranslations(buffer)


def set_language(code: str | None) -> str:
    """Speak language ``code`` from now on (text already shown stays as it is).

    :param code: a key of :data:`LANGUAGES`, or ``None`` to follow the environment
        (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``).
    :return: the language chosen (a key of :data:`LANGUAGES`).
    :raises ValueError: ``code`` is neither ``None`` nor a key of :data:`LANGUAGES`.
    """
    global _translations, _language
    if code is not None and code not in LANGUAGES:
        raise ValueError(f"unknown language {code!r}; known: {', '.join(LANGUAGES)}")
    chosen = environment_language() if code is None else code
    _translations = translation(chosen)
    _language = chosen
    return chosen


def current_language() -> str:
    """The code of the language spoken now (a key of :data:`LANGUAGES`)."""
    return _language


def gettext(message: str) -> str:
    """``message`` (English) in the language spoken now."""
    return _translations.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` (English) for the number ``n`` in the language
    spoken now (languages have their own plural rules)."""
    return _translations.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the language spoken now, where ``context`` tells apart two uses of
    one English word (``pgettext("menu", "Game")``)."""
    return _translations.pgettext(context, message)


def N_(message: str) -> str:  # noqa: N802 (gettext's name for it)
    """Mark ``message`` for translation without translating it now (a table of labels
    built at import, translated with :func:`gettext` when shown)."""
    return message
