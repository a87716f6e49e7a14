"""The project's jaxtypes settings: ``[tool.jaxtypes]`` in pyproject.toml, ``[jaxtypes]`` in an ini file.

The mypy plugin and ``jaxtypes check`` read the same section of the configuration file mypy
reads (pydantic's plugin does the same with ``[pydantic-mypy]``). An unknown key or a value of
the wrong type is a ``SettingsError`` naming the file, the section and the key: a misspelt
setting silently ignored would silently change what is reported.

Imports neither jax nor mypy: the plugin reads it at mypy start-up.
"""

from __future__ import annotations

import configparser
import sys
from pathlib import Path
from typing import Any, NamedTuple

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

INI_SECTION = "jaxtypes"
TOML_TABLE = "tool.jaxtypes"


class SettingsError(ValueError):
    """The jaxtypes section of a configuration file holds a key or value jaxtypes cannot use."""


class Settings(NamedTuple):
    """Every jaxtypes setting, with its default."""

    trusted_static_types: tuple[str, ...] = ()
    """Fully qualified names of classes whose identity is their value (interned or singleton),
    accepted as static values although they hash by identity."""


def read_settings(config_file: str | None) -> Settings:
    """The settings in ``config_file`` (mypy's configuration file); defaults where it has none."""
    if config_file is None:
        return Settings()
    path = Path(config_file)
    if path.suffix == ".toml":
        with path.open("rb") as file:
            table = tomllib.load(file).get("tool", {}).get("jaxtypes", {})
        return _settings(table, f"{path}: [{TOML_TABLE}]", from_ini=False)
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(path, encoding="utf-8")
    section = dict(parser[INI_SECTION]) if parser.has_section(INI_SECTION) else {}
    return _settings(section, f"{path}: [{INI_SECTION}]", from_ini=True)


def _settings(raw: dict[str, Any], where: str, from_ini: bool) -> Settings:
    values: dict[str, Any] = {}
    for key, value in raw.items():
        field = key.replace("-", "_")
        if field not in _PARSERS:
            known = ", ".join(Settings._fields)
            raise SettingsError(f"{where}: unknown key {key!r} (jaxtypes knows: {known})")
        items = _ini_list(value) if from_ini else value
        values[field] = _PARSERS[field](items, f"{where}: {key}")
    return Settings(**values)


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


_PARSERS = {"trusted_static_types": _qualified_names}
"""How each key's value is checked and converted, given a list (ini) or the TOML value."""
