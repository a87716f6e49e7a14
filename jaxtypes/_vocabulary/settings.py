"""The project's jaxtypes settings: ``[tool.jaxtypes]`` in pyproject.toml, ``[jaxtypes]`` in an ini file.

The mypy plugin and ``jaxtypes check`` read the same section of the configuration file mypy
reads (pydantic's plugin does the same with ``[pydantic-mypy]``). An unknown key or a value of
the wrong type is a ``SettingsError`` naming the file, the section and the key: a misspelt
setting silently ignored would silently change what is reported. One table, ``_KEYS``, says
which keys exist, so the plugin and the linter accept exactly the same ones.

Imports neither jax nor mypy: the plugin reads it at mypy start-up.
"""

from __future__ import annotations

import configparser
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from jaxtypes._vocabulary.rules import RULES_BY_CODE

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

INI_SECTION = "jaxtypes"
TOML_TABLE = "tool.jaxtypes"
CONFIG_FILE_NAMES = ("mypy.ini", ".mypy.ini", "pyproject.toml", "setup.cfg")
"""The files mypy looks for in a project folder, in its order."""


class SettingsError(ValueError):
    """The jaxtypes section of a configuration file holds a key or value jaxtypes cannot use."""


class Settings(NamedTuple):
    """Every jaxtypes setting, with its default."""

    trusted_static_types: tuple[str, ...] = ()
    """Fully qualified names of classes whose identity is their value (interned or singleton),
    accepted as static values although they hash by identity."""
    select: tuple[str, ...] = ()
    """``jaxtypes check`` reports only these codes (every code when empty)."""
    ignore: tuple[str, ...] = ()
    """``jaxtypes check`` does not report these codes."""
    baseline: str | None = None
    """The baseline ``jaxtypes check`` compares with; relative paths are resolved against the
    configuration file's folder when read."""
    sanitize: bool = False
    """The pytest plugin runs every test under the jit sanitizer (``pytest --jaxtypes-sanitize``)."""


def read_settings(config_file: str | None) -> Settings:
    """The settings in ``config_file`` (mypy's configuration file); defaults where it has none."""
    if config_file is None:
        return Settings()
    path = Path(config_file)
    section = _section(path)
    where = f"{path}: [{TOML_TABLE if _is_toml(path) else INI_SECTION}]"
    values: dict[str, Any] = {}
    for key, value in (section or {}).items():
        field = key.replace("-", "_")
        if field not in _KEYS:
            known = ", ".join(Settings._fields)
            raise SettingsError(f"{where}: unknown key {key!r} (jaxtypes knows: {known})")
        parse, ini_list = _KEYS[field]
        items = _ini_list(value) if ini_list and not _is_toml(path) else value
        values[field] = parse(items, f"{where}: {key}")
    settings = Settings(**values)
    if settings.baseline is not None:
        settings = settings._replace(baseline=str(path.parent / settings.baseline))
    return settings


def settings_file(config_file: str | None, folder: Path) -> str | None:
    """The configuration file whose jaxtypes section applies: mypy's, when mypy reads one.

    A jaxtypes section in another configuration file beside it is a ``SettingsError``, since
    neither mypy's plugin nor ``jaxtypes check`` would read it. When mypy reads no
    configuration file, the one file in ``folder`` (the working folder) with a jaxtypes
    section, if any.
    """
    home = folder if config_file is None else Path(config_file).parent
    others = [
        path
        for path in (home / name for name in CONFIG_FILE_NAMES)
        if path.is_file() and not (config_file and path.samefile(config_file)) and _has_section(path)
    ]
    if config_file is not None and others:
        raise SettingsError(
            f"{others[0]} has jaxtypes settings, but mypy reads its configuration from {config_file}, so neither "
            f"the mypy plugin nor jaxtypes check would see them: move them to {_section_name(Path(config_file))} "
            f"in {config_file}"
        )
    if len(others) > 1:
        raise SettingsError(
            f"both {others[0]} and {others[1]} have jaxtypes settings; keep them in one file "
            f"(the one that holds mypy's configuration)"
        )
    return str(others[0]) if others else config_file


def _is_toml(path: Path) -> bool:
    return path.suffix == ".toml"


def _section_name(path: Path) -> str:
    return f"[{TOML_TABLE}]" if _is_toml(path) else f"[{INI_SECTION}]"


def _has_section(path: Path) -> bool:
    try:
        return _section(path) is not None
    except SettingsError:  # like mypy, pass over a file that cannot be read
        return False


def _section(path: Path) -> dict[str, Any] | None:
    """The jaxtypes section of the file at ``path``, or None when it has none."""
    try:
        if _is_toml(path):
            with path.open("rb") as file:
                table = tomllib.load(file).get("tool", {}).get("jaxtypes")
            if table is not None and not isinstance(table, dict):
                raise SettingsError(f"{path}: {TOML_TABLE} must be a table")
            return table
        parser = configparser.ConfigParser(interpolation=None)
        parser.read(path, encoding="utf-8")
    except (OSError, tomllib.TOMLDecodeError, configparser.Error) as error:
        raise SettingsError(f"{path}: cannot read the jaxtypes settings: {error}") from None
    return dict(parser[INI_SECTION]) if parser.has_section(INI_SECTION) else None


def _ini_list(value: str) -> list[str]:
    """An ini value as a list: items separated by commas or new lines."""
    return [item.strip() for item in value.replace("\n", ",").split(",") if item.strip()]


def _qualified_names(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise SettingsError(f'{where} must be a list of qualified class names, e.g. ["pkg.module.Class"]')
    for name in value:
        if "." not in name or not all(part.isidentifier() for part in name.split(".")):
            raise SettingsError(f"{where}: {name!r} is not a qualified class name such as pkg.module.Class")
    return tuple(value)


def _codes(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise SettingsError(f'{where} must be a list of jaxtypes codes, e.g. ["static-unhashable"]')
    unknown = [code for code in value if code not in RULES_BY_CODE]
    if unknown:
        codes = ", ".join(sorted(RULES_BY_CODE))
        raise SettingsError(f"{where}: unknown code {', '.join(unknown)}; the codes are: {codes}")
    return tuple(value)


def _path(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise SettingsError(f'{where} must be a file path, e.g. "jaxtypes-baseline.json"')
    return value.strip()


def _flag(value: Any, where: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    raise SettingsError(f"{where} must be true or false")


class _Key(NamedTuple):
    parse: Callable[[Any, str], Any]
    """Checks the value (a TOML value, an ini string or list) and converts it, or raises SettingsError."""
    ini_list: bool
    """Whether an ini value is a list, items separated by commas or new lines."""


_KEYS = {
    "trusted_static_types": _Key(_qualified_names, ini_list=True),
    "select": _Key(_codes, ini_list=True),
    "ignore": _Key(_codes, ini_list=True),
    "baseline": _Key(_path, ini_list=False),
    "sanitize": _Key(_flag, ini_list=False),
}
"""Every key, how its value is checked and converted."""
