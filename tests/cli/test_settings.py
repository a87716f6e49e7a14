"""One configuration: the jaxtypes settings the plugin and ``jaxtypes check`` both read."""

from __future__ import annotations

from pathlib import Path

import pytest

from check_runner import PROJECT, REPO, Check, project_ini
from jaxtypes._vocabulary.settings import Settings, SettingsError, read_settings, settings_file


def write(path: Path, text: str) -> str:
    path.write_text(text)
    return str(path)


def test_every_setting_from_pyproject_toml(tmp_path: Path) -> None:
    config = write(
        tmp_path / "pyproject.toml",
        "[tool.mypy]\nstrict = true\n\n[tool.jaxtypes]\n"
        'trusted-static-types = ["pkg.units.Unit"]\n'
        'select = ["static-unhashable", "static-identity-hash"]\n'
        'ignore = ["jit-device"]\n'
        'baseline = "ci/jaxtypes-baseline.json"\n',
    )
    assert read_settings(config) == Settings(
        trusted_static_types=("pkg.units.Unit",),
        select=("static-unhashable", "static-identity-hash"),
        ignore=("jit-device",),
        baseline=str(tmp_path / "ci" / "jaxtypes-baseline.json"),
    )


def test_every_setting_from_an_ini_file_with_lists_split_on_commas_and_lines(tmp_path: Path) -> None:
    config = write(
        tmp_path / "setup.cfg",
        "[mypy]\n\n[jaxtypes]\n"
        "trusted_static_types =\n    pkg.units.Unit\n    pkg.units.Scale\n"
        "select = static-unhashable, static-identity-hash\n"
        "baseline = baseline.json\n",
    )
    assert read_settings(config) == Settings(
        trusted_static_types=("pkg.units.Unit", "pkg.units.Scale"),
        select=("static-unhashable", "static-identity-hash"),
        baseline=str(tmp_path / "baseline.json"),
    )


def test_no_section_or_no_file_gives_the_defaults(tmp_path: Path) -> None:
    assert read_settings(write(tmp_path / "mypy.ini", "[mypy]\n")) == Settings()
    assert read_settings(None) == Settings()


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ('selct = ["static-unhashable"]', "[tool.jaxtypes]: unknown key 'selct' (jaxtypes knows: trusted_static"),
        ('select = "static-unhashable"', '[tool.jaxtypes]: select must be a list of jaxtypes codes, e.g. ["static-'),
        ('ignore = ["static-unhashabel"]', "[tool.jaxtypes]: ignore: unknown code static-unhashabel; the codes are: "),
        ("baseline = 3", '[tool.jaxtypes]: baseline must be a file path, e.g. "jaxtypes-baseline.json"'),
        ('trusted_static_types = ["Unit"]', "[tool.jaxtypes]: trusted_static_types: 'Unit' is not a qualified class"),
        ("jaxtypes = 1", "[tool.jaxtypes]: unknown key 'jaxtypes'"),
    ],
)
def test_an_unknown_key_or_a_wrong_value_is_an_error_naming_file_section_and_key(
    tmp_path: Path, section: str, message: str
) -> None:
    config = write(tmp_path / "pyproject.toml", f"[tool.mypy]\n[tool.jaxtypes]\n{section}\n")
    with pytest.raises(SettingsError) as raised:
        read_settings(config)
    assert str(raised.value).startswith(f"{config}: {message}")


def test_the_settings_are_those_of_the_file_mypy_reads(tmp_path: Path) -> None:
    mypy_ini = write(tmp_path / "mypy.ini", "[mypy]\n[jaxtypes]\nselect = static-unhashable\n")
    write(tmp_path / "setup.cfg", "[flake8]\n")
    write(tmp_path / "pyproject.toml", "[tool.jaxtypes\n")  # unreadable: mypy passes over it too
    assert settings_file(mypy_ini, tmp_path / "elsewhere") == mypy_ini


def test_settings_in_a_file_mypy_does_not_read_are_an_error(tmp_path: Path) -> None:
    """mypy.ini wins over pyproject.toml, so the plugin would never see [tool.jaxtypes] there."""
    mypy_ini = write(tmp_path / "mypy.ini", "[mypy]\n")
    write(tmp_path / "pyproject.toml", '[tool.jaxtypes]\nselect = ["static-unhashable"]\n')
    with pytest.raises(SettingsError) as raised:
        settings_file(mypy_ini, tmp_path)
    assert str(raised.value) == (
        f"{tmp_path / 'pyproject.toml'} has jaxtypes settings, but mypy reads its configuration from {mypy_ini}, "
        f"so neither the mypy plugin nor jaxtypes check would see them: move them to [jaxtypes] in {mypy_ini}"
    )


def test_without_a_mypy_configuration_the_one_file_with_settings_is_used(tmp_path: Path) -> None:
    assert settings_file(None, tmp_path) is None
    pyproject = write(tmp_path / "pyproject.toml", '[project]\nname = "p"\n\n[tool.jaxtypes]\nignore = []\n')
    assert settings_file(None, tmp_path) == pyproject
    write(tmp_path / "setup.cfg", "[jaxtypes]\nignore = jit-device\n")
    with pytest.raises(SettingsError, match="both .*pyproject.toml and .*setup.cfg have jaxtypes settings; keep them"):
        settings_file(None, tmp_path)


def test_the_plugin_and_the_linter_accept_the_same_keys() -> None:
    """One table: every field of Settings is a key, with a documented entry in docs/check.md."""
    from jaxtypes._vocabulary import settings

    assert set(settings._KEYS) == set(Settings._fields)
    documented = (REPO / "docs" / "check.md").read_text()
    assert all(f"| `{key}` |" in documented for key in Settings._fields)


# The command line: settings apply, flags override them, bad settings stop it with status 2.


def test_configured_select_and_ignore_apply_and_flags_override_them(check: Check, tmp_path: Path) -> None:
    (tmp_path / "configured.py").write_text((PROJECT / "buggy.py").read_text())
    write(tmp_path / "mypy.ini", project_ini("ignore = static-unhashable"))
    configured = check("configured.py", cwd=tmp_path)
    overridden = check("--ignore", "static-dynamic-child", "configured.py", cwd=tmp_path)
    assert configured.returncode == overridden.returncode == 1
    assert configured.stdout.splitlines()[-1].endswith("checked): static-dynamic-child 1")
    assert overridden.stdout.splitlines()[-1].endswith("checked): static-unhashable 1")
    write(tmp_path / "mypy.ini", project_ini("select = static-unhashable"))
    selected = check("configured.py", cwd=tmp_path)
    assert selected.stdout.splitlines()[-1].endswith("checked): static-unhashable 1")


@pytest.mark.parametrize(
    ("section", "error"),
    [
        ("selct = static-unhashable", "[jaxtypes]: unknown key 'selct' (jaxtypes knows: "),
        ("select = static-unhashabel", "[jaxtypes]: select: unknown code static-unhashabel; the codes are: "),
    ],
)
def test_a_bad_setting_stops_the_check_with_one_line_and_status_2(
    check: Check, tmp_path: Path, section: str, error: str
) -> None:
    write(tmp_path / "mypy.ini", project_ini(section))
    (tmp_path / "ok.py").write_text("")
    result = check("ok.py", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.startswith(f"jaxtypes check: error: mypy.ini: {error}")
    assert len(result.stderr.splitlines()) == 1


def test_jaxtypes_settings_beside_an_ini_file_mypy_reads_are_an_error(check: Check, tmp_path: Path) -> None:
    write(tmp_path / "mypy.ini", project_ini())
    write(tmp_path / "pyproject.toml", '[tool.jaxtypes]\nignore = ["static-unhashable"]\n')
    (tmp_path / "ok.py").write_text("")
    result = check("ok.py", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (
        "jaxtypes check: error: pyproject.toml has jaxtypes settings, but mypy reads its configuration from "
        "mypy.ini, so neither the mypy plugin nor jaxtypes check would see them: move them to [jaxtypes] in mypy.ini\n"
    )


def test_a_project_with_only_tool_jaxtypes_is_checked_with_its_settings(
    check: Check, bare_cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONPATH", str(REPO))  # mypy cannot follow an editable install
    (tmp_path / "only_toml.py").write_text((PROJECT / "buggy.py").read_text())
    write(tmp_path / "pyproject.toml", '[project]\nname = "p"\n\n[tool.jaxtypes]\nselect = ["static-unhashable"]\n')
    result = check("only_toml.py", cwd=tmp_path, cache=bare_cache)
    assert result.returncode == 1, result.stderr
    assert result.stdout.splitlines()[-1] == ("Found 1 finding in 1 file (1 source file checked): static-unhashable 1")
