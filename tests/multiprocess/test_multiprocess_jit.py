"""``jaxtypes.jit`` in real multi-process jobs: 2 processes x 2 virtual CPU devices on localhost.

Each test starts a job (``process_launcher.run_job``) and checks what every process reports.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from process_launcher import JobFailed, run_job

X = list(range(8))


@pytest.fixture(scope="module")
def agreeing() -> list[dict[str, Any]]:
    return run_job("agree")


def test_every_process_sees_the_whole_job(agreeing: list[dict[str, Any]]) -> None:
    assert [r["process"] for r in agreeing] == [0, 1]
    assert all(r["devices"] == 4 for r in agreeing)


def test_sharded_jit_with_static_config_and_pytree_gives_the_global_result_everywhere(
    agreeing: list[dict[str, Any]],
) -> None:
    for result in agreeing:
        assert result["sharded"]
        assert result["step"] == [x / 2 * 3 + 2 for x in X]
        assert result["step_again"] == [1 / 2 * 3 + 2] * 8
        assert result["step_other"] == [x / 2 * 5 + 2 for x in X]


def test_an_equal_config_hits_the_cache_while_the_check_is_on(agreeing: list[dict[str, Any]]) -> None:
    assert [r["step_compiles"] for r in agreeing] == [2, 2]


def test_jitted_methods_of_pytree_and_static_classes(agreeing: list[dict[str, Any]]) -> None:
    for result in agreeing:
        assert result["advance"] == [x / 2 * 3 + 1 for x in X]
        assert result["apply"] == [x * 4 for x in X]
        assert result["apply_compiles"] == 1


def test_the_fingerprint_is_the_same_on_every_process(agreeing: list[dict[str, Any]]) -> None:
    fingerprints = {r["fingerprint"] for r in agreeing}
    assert len(fingerprints) == 1 and len(fingerprints.pop()) == 64


@pytest.fixture(scope="module")
def disagreeing() -> list[dict[str, Any]]:
    return run_job("disagree")


def test_a_nested_field_that_differs_raises_on_every_process(disagreeing: list[dict[str, Any]]) -> None:
    results = disagreeing
    for process, other, tolerance, theirs in ((0, 1, "1e-06", "1e-05"), (1, 0, "1e-05", "1e-06")):
        error = results[process]["errors"]["config"]
        assert error["type"] == "StaticAgreementError"
        assert error["code"] == "jit-static-disagreement"
        assert error["where"].endswith("step: config.solver.tolerance")
        here = f"on process {process} (this process)"
        assert f"is {tolerance} {here} and {theirs} on process {other}" in error["message"]
        state = results[process]["errors"]["state"]
        assert state["where"].endswith("step: state.order")
        assert f"is {process + 1} {here} and {other + 1} on process {other}" in state["message"]


def test_a_function_that_opts_out_is_not_checked(disagreeing: list[dict[str, Any]]) -> None:
    assert [r["local"] for r in disagreeing] == [[0.0, 0.0], [1.0, 1.0]]


def test_a_process_that_does_not_compile_in_time_is_named_and_the_late_one_raises_too() -> None:
    early, late = (r["errors"]["config"] for r in run_job("absent"))
    assert early["type"] == late["type"] == "StaticAgreementError"
    assert "compiled on process 0 (this process), and process(es) 1 did not compile it within 3 s" in early["message"]
    assert "compiled on process 1 (this process) more than 3 s after the other processes" in late["message"]


def test_a_job_past_its_deadline_leaves_no_process_behind() -> None:
    with pytest.raises(JobFailed, match="deadline") as failed:
        run_job("stall", deadline_s=10)
    for pid in failed.value.pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
