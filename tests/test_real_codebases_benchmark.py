"""`benchmarks/real_codebases.py` copies a package's sources to check them as mypy would, leaving
out the files mypy would stop at: one that does not parse must not end the run over the others."""

from __future__ import annotations

from pathlib import Path

from tests.source_modules import import_path

real_codebases = import_path(Path(__file__).resolve().parents[1] / "benchmarks" / "real_codebases.py", "real_codebases")


def test_files_that_do_not_parse_are_left_out_and_named(tmp_path: Path) -> None:
    package = tmp_path / "site" / "pkg"
    (package / "generated").mkdir(parents=True)
    (package / "model.py").write_text("def f(x):\n    return x\n")
    (package / "broken.py").write_text("def f(:\n")
    # a generated polynomial nested deeper than Python's parser goes (it raises RecursionError)
    (package / "generated" / "poly.py").write_text("p = " + " + ".join(["x"] * 200_000) + "\n")
    workdir = tmp_path / "work"
    workdir.mkdir()
    dropped = real_codebases.copy_sources(package, workdir)
    assert sorted(map(str, dropped)) == ["pkg/broken.py", "pkg/generated/poly.py"]
    assert sorted(path.name for path in (workdir / "pkg").rglob("*.py")) == ["__init__.py", "model.py"]
