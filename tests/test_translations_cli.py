"""The ``solitaire`` command speaks the player's language: its help, argparse's own words
(``usage:``, the group titles, the usage errors) and the sentences it tells the player, in
the language of the settings file or, when that says ``"system"``, of the environment.
What programs read (option names and values, ``show``'s layout) stays English."""

from __future__ import annotations

import argparse
import gettext
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from solitaire_core import cli, i18n


def run(*argv: str, language: str | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m solitaire_core ARGV`` in a fresh process, with ``LANGUAGE=language``
    (none when ``None``: then ``env`` may set ``LANG``) and the other ``env`` variables."""
    environment = dict(os.environ)
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        environment.pop(name, None)
    if language is not None:
        environment["LANGUAGE"] = language
    environment.update(env, COLUMNS="200")
    return subprocess.run(
        [sys.executable, "-m", "solitaire_core", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        env=environment,
    )


def save_language(home: Path, code: str) -> None:
    """Write a settings file holding ``language = code`` into ``home``."""
    folder = home / "config"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "settings.toml").write_text(f'format_version = 1\nlanguage = "{code}"\n')


def test_the_help_is_german_when_the_environment_says_german(solitaire_home: Path) -> None:
    done = run("--help", language="de")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("Aufruf: solitaire [-h] [--version] BEFEHL ...")
    assert "Positionsargumente:" in out and "Optionen:" in out
    # The help column's width differs between Pythons (3.13 leaves more room).
    assert re.search(r"-h, --help +diese Hilfe zeigen und beenden\n", out)
    assert re.search(r"--version +die Versionsnummer des Programms zeigen und beenden\n", out)
    assert "eine Variantendatei prüfen" in out  # check's help
    assert "show this help message" not in out


def test_a_sub_command_s_help_is_french(solitaire_home: Path) -> None:
    done = run("solve", "--help", language="fr")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("usage : solitaire solve [-h] --deal N [--option CLÉ=VALEUR]")
    assert "arguments positionnels" in out
    assert "--timeout S" in out and "abandonner après S secondes" in out
    assert "id de la variante (voir 'solitaire list') ou un fichier de variante .toml" in out
    assert "--engine {auto,c,python}" in out  # the values stay English


def test_the_saved_language_wins_over_the_environment(solitaire_home: Path) -> None:
    save_language(solitaire_home, "es")
    done = run("show", "--help", language="de")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("uso: solitaire show [-h] [--deal N] [--option CLAVE=VALOR]")
    assert "número de partida" in done.stdout
    assert "mostrar este mensaje de ayuda y salir" in done.stdout


def test_a_saved_english_wins_too(solitaire_home: Path) -> None:
    save_language(solitaire_home, "en")
    done = run("--help", language="de")
    assert done.stdout.startswith("usage: solitaire [-h] [--version] COMMAND ...")
    assert "show this help message and exit" in done.stdout


def test_system_follows_the_locale_of_the_environment(solitaire_home: Path) -> None:
    save_language(solitaire_home, "system")
    done = run("variant", "new", "--help", LANG="fr_FR.UTF-8")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage : solitaire variant new [-h] --from ID [--name TEXTE]")
    assert "nom affiché (par défaut : tiré de NOUVEL-ID)" in done.stdout


def test_usage_errors_are_in_the_player_s_language(solitaire_home: Path) -> None:
    missing = run("show", language="fr")
    assert missing.returncode == 2 and missing.stdout == ""
    assert missing.stderr.splitlines()[-1] == (
        "solitaire show : erreur : les arguments suivants sont obligatoires : variante"
    )
    bad_deal = run("show", "seahaven", "--deal", "x", language="de")
    assert bad_deal.returncode == 2
    line = bad_deal.stderr.splitlines()[-1]  # Python 3.10 says "argument" in English
    assert line.startswith("solitaire show: Fehler: ")
    assert line.endswith(" --deal: eine ganze Zahl erwartet, nicht 'x'")
    bad_option = run("show", "seahaven", "--option", "nothing", language="es")
    assert bad_option.returncode == 2
    assert bad_option.stderr == ("solitaire: error: --option espera clave=valor, no 'nothing'\n")


def test_in_process_german_and_argparse_given_back(
    solitaire_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``main`` in this process speaks German, prints the layout in English as ever, and
    leaves argparse's own ``gettext`` as it found it (other parsers stay English)."""
    monkeypatch.setenv("LANGUAGE", "de")
    with pytest.raises(SystemExit) as info:
        cli.main(["export", "--help"])
    assert info.value.code == 0
    assert capsys.readouterr().out.startswith("Aufruf: solitaire export [-h] --deal N")
    assert i18n.current_language() == "de"
    assert argparse._ is gettext.gettext  # type: ignore[attr-defined]
    assert cli.main(["show", "seahaven", "--deal", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "Seahaven Towers #1"
    other = argparse.ArgumentParser(prog="other")
    assert other.format_usage() == "usage: other [-h]\n"


def test_version_needs_no_language(solitaire_home: Path) -> None:
    (solitaire_home / "config").mkdir()
    (solitaire_home / "config" / "settings.toml").write_text("not toml at all [")
    done = run("--version", language="de")
    assert done.returncode == 0 and done.stdout.startswith("solitaire ")
    assert (solitaire_home / "config" / "settings.toml").read_text() == "not toml at all ["
