"""The plugin survives strange code, missing jax and a cache written by an older plugin.

``corpus/`` holds syntactically valid but odd modules (decorators twice, classes made by
``type(...)``/``make_dataclass``, ignored imports, markers outside jaxtypes classes, recursive
aliases, shadowed names, star imports, conditional definitions, bare markers, generic classes).
Every run goes through ``mypy_runner.run_mypy``, which fails on a mypy crash (exit status 2, a
traceback) and on the plugin's own internal-error message; the diagnostics themselves are not
asserted, except that a stale cache changes none of them.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.plugin.mypy_runner import REPO, Diagnostic, run_mypy, write_config

CORPUS = Path(__file__).parent / "corpus"
FILES = sorted(path.name for path in CORPUS.glob("*.py"))
JSON_CACHE = ("--no-sqlite-cache", "--no-fixed-format-cache")


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One JSON cache for the module: jax is analysed once, and the stale-cache test can edit it."""
    return tmp_path_factory.mktemp("mypy_cache")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(CORPUS, tmp_path, dirs_exist_ok=True)
    write_config(tmp_path)
    return tmp_path


def check(project: Path, cache_dir: Path, *args: str) -> list[Diagnostic]:
    return run_mypy(project, "--cache-dir", str(cache_dir), *JSON_CACHE, *args, *FILES)


def test_corpus_cold_and_from_the_cache(project: Path, cache_dir: Path) -> None:
    cold = check(project, cache_dir)
    assert check(project, cache_dir) == cold
    assert check(project, cache_dir, "-n", "2") == cold


def test_corpus_without_jax_installed(project: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """``--no-site-packages`` hides jax and numpy; jaxtypes is found through ``mypy_path`` only."""
    write_config(project, f"mypy_path = {REPO}\n")
    found = check(project, tmp_path_factory.mktemp("no_jax_cache"), "--no-site-packages")
    assert any(d.code == "import-not-found" and "jax" in d.message for d in found)


STALE_SHAPES: list[Any] = [
    {"role": "static"},
    {"role": "pytree", "meta_fields": "all", "problem": "static-unhashable"},
    {"role": "unknown", "meta_fields": [], "problem": ["no-such-code", "x", None]},
    ["static"],
]


@pytest.mark.parametrize("shape", range(len(STALE_SHAPES)))
def test_a_cache_written_by_an_older_plugin_is_not_trusted(project: Path, cache_dir: Path, shape: int) -> None:
    """Facts recorded in another shape, under an older plugin version, are re-derived."""
    cache = project / "cache"
    shutil.copytree(cache_dir, cache, dirs_exist_ok=True)
    fresh = check(project, cache)
    edited = _age_plugin_facts(cache, STALE_SHAPES[shape])
    assert edited, "no cached class carries jaxtypes facts"
    (project / "star_imports.py").write_text((project / "star_imports.py").read_text() + "\nextra = Starred\n")
    assert check(project, cache) == fresh


def _age_plugin_facts(cache: Path, shape: Any) -> int:
    """Rewrite every cached ``metadata["jaxtypes"]`` to ``shape`` and the plugin version to 0.0.1."""
    edited = 0
    for meta in cache.rglob("*.meta.json"):
        data = meta.with_name(meta.name.replace(".meta.json", ".data.json"))
        tree = json.loads(data.read_text())
        count = _replace_facts(tree, shape)
        if count:
            data.write_text(json.dumps(tree))
            info = json.loads(meta.read_text())
            info["plugin_data"] = _old_version(info.get("plugin_data"))
            meta.write_text(json.dumps(info))
            edited += count
    return edited


def _replace_facts(node: Any, shape: Any) -> int:
    if isinstance(node, list):
        return sum(_replace_facts(item, shape) for item in node)
    if not isinstance(node, dict):
        return 0
    count = 0
    metadata = node.get("metadata")
    if isinstance(metadata, dict) and "jaxtypes" in metadata:
        metadata["jaxtypes"] = shape
        count += 1
    return count + sum(_replace_facts(value, shape) for key, value in node.items() if key != "metadata")


def _old_version(plugin_data: Any) -> Any:
    """The cached plugin snapshot with every jaxtypes plugin version set to 0.0.1."""
    if isinstance(plugin_data, dict):
        return {key: "0.0.1" if key == "version" else _old_version(value) for key, value in plugin_data.items()}
    if isinstance(plugin_data, list):
        return [_old_version(item) for item in plugin_data]
    return plugin_data
