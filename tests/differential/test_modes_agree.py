"""After every edit of a generated project, four ways of running mypy report the same.

The ways: warm (one incremental cache kept across the edits), cold (the project's modules
checked from scratch), ``-n 2`` (its own incremental cache) and the daemon (``dmypy run``, one
daemon for the whole test, fed every sequence in turn). Every run starts from a seed cache that
holds jax and jaxtypes only, made once, so a cold run costs a second rather than the time jax
takes. Sequences live side by side under one root with their own module names, because the
daemon's configuration is fixed when it starts. Sequence count: ``budget`` (default 3 of 2 edits).
"""

from __future__ import annotations

import itertools
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from jaxtypes._vocabulary.rules import RULES_BY_CODE
from tests.differential.budget import generated
from tests.differential.projects import Edit, Project, apply, sequences, write
from tests.plugin.mypy_runner import Diagnostic, run_dmypy, run_mypy, write_config

EDITS = 2
_serials = itertools.count()


class Root:
    """The shared directory: config, seed cache, daemon status file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.seed = path / "seed_cache"
        self.status = path / "dmypy.json"

    def cache(self, name: str) -> Path:
        """A fresh copy of the seed cache."""
        target = self.path / name
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(self.seed, target)
        return target

    def mypy(self, cache: Path, files: list[Path], *flags: str) -> list[Diagnostic]:
        return run_mypy(self.path, "--cache-dir", str(cache), *flags, *map(str, files))

    def daemon(self, files: list[Path]) -> list[Diagnostic]:
        return run_dmypy(self.path, self.status, "run", "--", *map(str, files))


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Root]:
    root = Root(tmp_path_factory.mktemp("modes"))
    write_config(root.path)
    (root.path / "seed.py").write_text("import jaxtypes\n")
    run_mypy(root.path, "--cache-dir", str(root.seed), "seed.py")
    try:
        yield root
    finally:
        run_dmypy(root.path, root.status, "stop")


@generated(3)
@given(data=st.data())
def test_warm_cold_parallel_and_daemon_agree_after_each_edit(root: Root, data: st.DataObject) -> None:
    serial = next(_serials)
    project, edits = data.draw(sequences(f"s{serial}", EDITS))
    directory = root.path / project.prefix
    directory.mkdir()
    warm, parallel = root.cache(f"{project.prefix}_warm"), root.cache(f"{project.prefix}_parallel")
    steps: list[Edit | None] = [None, *edits]
    for step, edit in enumerate(steps):
        if edit is not None:
            apply(project, edit, next(_serials))
        write(directory, project, step)
        files = [directory / name for name in project.files()]
        cold = root.mypy(root.cache("cold"), files)
        event("jaxtypes findings after an edit", str(sum(d.code in RULES_BY_CODE for d in cold)))
        context = _describe(project, step, edit)
        assert root.mypy(warm, files) == cold, context
        assert root.mypy(parallel, files, "-n", "2") == cold, context
        assert root.daemon(files) == cold, context


def _describe(project: Project, step: int, edit: Edit | None) -> str:
    modules = "\n".join(f"# {name}\n{project.render(i)}" for i, name in enumerate(project.files()))
    return f"after step {step} ({edit}):\n{modules}"
