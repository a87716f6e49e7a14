"""How many examples the generated (hypothesis) suites run: small by default, scaled for local runs.

``JAXTYPES_TEST_EXAMPLES=N`` sets the number of plugin-vs-runtime examples; every other suite
scales its own default by the same ratio (at least one example). Examples are derandomized, so a
run is reproducible. Failures are not shrunk: every example runs mypy, so shrinking takes
minutes; the generated units are small and a failure prints the one unit that disagrees.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, Phase, settings

REFERENCE = 20
"""The plugin-vs-runtime suite's default example count, the unit ``JAXTYPES_TEST_EXAMPLES`` scales."""


def examples(default: int) -> int:
    """``default`` scaled by ``JAXTYPES_TEST_EXAMPLES / REFERENCE`` (``default`` when unset)."""
    wanted = os.environ.get("JAXTYPES_TEST_EXAMPLES")
    if not wanted:
        return default
    return max(1, round(default * int(wanted) / REFERENCE))


def generated(default: int) -> settings:
    """Settings for a suite whose examples run mypy or import modules: no deadline, fixed seed."""
    return settings(
        max_examples=examples(default),
        deadline=None,
        derandomize=True,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
    )
