"""mypy replays the findings of unchanged modules from its cache; the plugin keys the cache on
what decides them, the installed jaxtypes release included."""

from __future__ import annotations

from types import SimpleNamespace

from mypy.options import Options

import jaxtypes
import mypy_plugin
from jaxtypes._vocabulary.release import UNINSTALLED
from mypy_plugin.metadata import CACHE_FORMAT_VERSION
from mypy_plugin.reporting import ERROR_CODES


def test_the_cache_is_keyed_on_the_format_the_codes_and_the_release() -> None:
    plugin = mypy_plugin.plugin("2.4")(Options())
    data = plugin.report_config_data(SimpleNamespace(id="m", path="m.py", is_check=True))
    assert data["version"] == CACHE_FORMAT_VERSION
    assert data["codes"] == sorted(ERROR_CODES)
    assert data["release"] == jaxtypes.__version__ != UNINSTALLED
