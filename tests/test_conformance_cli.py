"""The two front ends of the kit: ``solitaire conformance`` and the pytest plugin
(``pytest --solitaire-variant``, the ``VariantConformance`` base class), and the plugin's
promise to stay inert and light until used."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from solitaire_core import cli
from solitaire_core import deal as deals


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_conformance_command_passes_a_built_in_variant(capsys):
    status, out, _ = run_cli(
        capsys, "conformance", "seahaven", "--examples", "3", "--steps", "5",
        "--check", "deal", "--check", "won", "--check", "scenarios",
    )  # fmt: skip
    assert status == 0
    assert "seahaven (Seahaven Towers, plugin solitaire_variants):" in out
    assert "3 of 3 checks passed" in out


def test_conformance_command_checks_every_option_choice_unless_one_is_given(capsys):
    status, out, _ = run_cli(
        capsys, "conformance", "sea-towers", "--examples", "2", "--check", "won"
    )
    assert status == 0
    assert "sea-towers (" in out and "sea-towers[empty_columns=any] (" in out
    status, out, _ = run_cli(
        capsys, "conformance", "sea-towers", "--option", "empty_columns=any",
        "--examples", "2", "--check", "won",
    )  # fmt: skip
    assert status == 0 and "1 of 1 checks passed" in out
    assert "sea-towers[empty_columns=any] (" in out


def test_conformance_command_reports_a_failing_check_with_exit_status_1(capsys, monkeypatch):
    honest = deals.lay_out
    monkeypatch.setattr(deals, "lay_out", lambda rules, cards: honest(rules, cards[::-1]))
    status, out, _ = run_cli(
        capsys, "conformance", "freecell", "--examples", "5", "--check", "deal"
    )
    assert status == 1
    assert "FAIL  deal" in out and "PySolFC's order" in out
    assert "0 of 1 checks passed, 1 failed" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["conformance", "no-such-variant"], "unknown variant 'no-such-variant'"),
        (["conformance", "seahaven", "--check", "nope"], "unknown check 'nope'"),
        (["conformance", "sea-towers", "--option", "empty_columns=some"], "is not a choice"),
        (["conformance", "seahaven", "--option", "novalue"], "expects key=value"),
    ],
)
def test_conformance_command_usage_errors_exit_2(capsys, argv, message):
    status, _, err = run_cli(capsys, *argv)
    assert status == 2 and message in err


def test_conformance_command_rejects_a_malformed_scenario_file(capsys, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('variant = "seahaven"\n[[scenario]]\nname = "x"\n', "utf-8")
    status, _, err = run_cli(capsys, "conformance", "seahaven", "--scenarios", str(bad))
    assert status == 1 and "bad.toml: scenario 1 (x)" in err and "missing" in err


def _python(code: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    return result.stdout


def test_the_pytest_plugin_and_the_command_import_nothing_heavy():
    out = _python(
        "import sys, solitaire_core.testing.plugin, solitaire_core.testing.cli, "
        "solitaire_core.testing\n"
        "print(sorted(m for m in ('hypothesis', 'solitaire_core.plugins', 'solitaire_variants', "
        "'solitaire_core.testing.checks') if m in sys.modules))"
    )
    assert out.strip() == "[]"


def _pytest(tmp_path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *args],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300,
    )  # fmt: skip


def test_pytest_option_runs_the_kit_on_the_named_variant(tmp_path):
    result = _pytest(
        tmp_path, "--solitaire-variant", "sea-towers", "--solitaire-examples", "2",
        "--solitaire-steps", "3", "-k", "won or deal_repeatable or scenarios",
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "6 passed" in result.stdout  # 3 checks x 2 option choices


def test_pytest_option_with_an_unknown_variant_is_a_usage_error(tmp_path):
    result = _pytest(tmp_path, "--solitaire-variant", "no-such-variant")
    assert result.returncode == pytest.ExitCode.USAGE_ERROR
    assert "unknown variant 'no-such-variant'" in result.stderr


def test_base_class_with_one_fixture_filled_runs_every_check(tmp_path):
    (tmp_path / "test_mine.py").write_text(
        textwrap.dedent(
            """
            import pytest
            from solitaire_core.plugins import get_variant
            from solitaire_core.testing import KitSettings, VariantConformance

            class TestByRules(VariantConformance):
                conformance_settings = KitSettings(max_examples=2, steps=3)

                @pytest.fixture
                def rules(self):
                    return get_variant("sea-towers").resolve({"empty_columns": "any"})

            class TestUnfilled(VariantConformance):
                pass
            """
        ),
        "utf-8",
    )
    result = _pytest(tmp_path, "-rs", "test_mine.py")
    out = result.stdout
    assert "12 passed, 1 skipped, 13 errors" in out  # options needs variant_definition
    assert "TestUnfilled: fill in the variant_definition or the rules fixture" in out
