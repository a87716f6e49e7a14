"""The declared support is one consistent statement, which CI's version sessions (``noxfile.py``)
test at both ends: the Python classifiers run without gaps from ``requires-python``'s lower bound,
and jax, jaxlib and mypy have a lower bound (the oldest session installs exactly it) and no upper
one."""

from __future__ import annotations

import sys

from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

from tests.plugin.mypy_runner import REPO

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
PREFIX = "Programming Language :: Python :: 3."


def test_python_classifiers_run_from_the_lower_bound_without_gaps() -> None:
    minors = sorted(int(c.removeprefix(PREFIX)) for c in PROJECT["classifiers"] if c.startswith(PREFIX))
    assert minors == list(range(minors[0], minors[-1] + 1))
    assert SpecifierSet(PROJECT["requires-python"]) == SpecifierSet(f">=3.{minors[0]}")
    assert f"{sys.version_info.major}.{sys.version_info.minor}" in SpecifierSet(PROJECT["requires-python"])


def test_jax_jaxlib_and_mypy_have_a_lower_bound_and_no_upper_one() -> None:
    requirements = {r.name: r for r in map(Requirement, PROJECT["dependencies"])}
    lower = {}
    for name in ("jax", "jaxlib", "mypy"):
        specifiers = list(requirements[name].specifier)
        assert [s.operator for s in specifiers] == [">="], requirements[name]
        lower[name] = specifiers[0].version
    assert lower["jax"] == lower["jaxlib"]
