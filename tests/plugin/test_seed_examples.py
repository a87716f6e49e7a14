"""The reported bugs of ``examples/seeds`` as written (plain ``jax.jit``: jit on a method of a plain
class, ``static_argnums=0`` on its ``self``, ``jax.jit(obj.method)``, a plain ``Vehicle`` as a
static argument) get each bug reported at its line; the correct versions and the jaxtypes
versions get none of the plugin's findings.

The accepted answer's fix to the jit-on-a-method question hashes ``self.x``, declared ``jnp.ndarray``: with an array there the
hash fails (the bug JAX users then reported, jax issue 39858), so it is reported too; the seed
runs only because it passes an int where it declares an array.

mypy's own errors in the examples as written (``CustomClass(2, True)`` passing ints for an
``jnp.ndarray``) are not the plugin's and are ignored.
"""

from __future__ import annotations

from pathlib import Path

from jaxtypes._vocabulary.rules import RULES_BY_CODE
from tests.plugin.mypy_runner import REPO, check_in_process, for_installed_jax

SEEDS = REPO / "examples" / "seeds"

EXPECTED = [
    ("seed000_answer_fix.py", 14, "static-dynamic-child"),
    ("seed000_jit_bound_method.py", 20, "jit-bound-method"),
    ("seed000_jit_on_method.py", 12, "jit-method-self"),
    ("seed000_static_self.py", 14, "static-identity-hash"),
    ("seed003_vehicle.py", 19, "static-identity-hash"),
    ("seed003_vehicle.py", 21, "static-identity-hash"),
]


def test_reported_bugs_are_reported_and_nothing_else(tmp_path: Path) -> None:
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    for seed in SEEDS.glob("*.py"):
        (seeds / seed.name).write_text(for_installed_jax(seed.read_text()))
    found = check_in_process(seeds, tmp_path / "cache")
    assert [(d.file, d.line, d.code) for d in found if d.code in RULES_BY_CODE] == EXPECTED
