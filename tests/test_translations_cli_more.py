"""The help of ``solitaire stats`` and ``solitaire conformance``, and their usage errors,
speak the player's language too, while the option names and ``--option``'s values stay
English."""

from __future__ import annotations

import re
from pathlib import Path

from test_translations_cli import run


def test_the_stats_help_is_german(solitaire_home: Path) -> None:
    done = run("stats", "--help", language="de")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith(
        "Aufruf: solitaire stats [-h] [--option SCHLÜSSEL=WERT] [--all] [--reset] [variante]"
    )
    assert "Die Statistik beendeter Spiele je Variante und Optionssatz zeigen." in out
    assert "nur diese Variante (ihre ID, z. B. seahaven, oder ihre .toml-Datei)" in out
    assert re.search(r"^  --all +alle Varianten \(nötig bei --reset ohne VARIANTE\)$", out, re.M)
    assert "die gespeicherten Spiele von VARIANTE löschen (oder aller Varianten mit --all)" in out
    assert "statistics of finished games" not in out


def test_the_conformance_help_is_spanish(solitaire_home: Path) -> None:
    done = run("conformance", "--help", language="es")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("uso: solitaire conformance [-h] [--option CLAVE=VALOR] [--examples N]")
    assert "[--scenarios ARCHIVO]" in out and "[--check NOMBRE]" in out
    assert "Ejecutar el kit de conformidad con las reglas" in out
    assert "Estado de salida 0 cuando todas las comprobaciones pasan" in out
    assert re.search(
        r"^  --steps N +movimientos por partida aleatoria \(por defecto 50\)$", out, re.M
    )
    assert "id de la variante (vea 'solitaire list') o un archivo de variante .toml" in out
    assert "reducir una partida aleatoria que falla a una corta (puede tardar minutos)" in out
    assert "moves per random game" not in out


def test_the_stats_and_conformance_usage_errors_are_translated(solitaire_home: Path) -> None:
    done = run("stats", "seahaven", "--all", language="de")
    assert done.returncode == 2
    assert done.stderr.strip().endswith("entweder eine VARIANTE oder --all angeben, nicht beides")
    done = run("stats", "--reset", language="fr")
    assert done.returncode == 2
    assert "--reset supprime les parties enregistrées sans demander" in done.stderr
    done = run("conformance", "seahaven", "--check", "no-such-check", language="es")
    assert done.returncode == 2
    assert "comprobación desconocida 'no-such-check' (comprobaciones: " in done.stderr
