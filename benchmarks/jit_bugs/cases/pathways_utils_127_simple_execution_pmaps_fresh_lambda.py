"""Source: https://github.com/AI-Hypercomputer/pathways-utils/pull/127
Library: plain-jax
Reported: "Extract lambda to a named function to ensure cache hits. The lambda function used in `jax.pmap` within `_test_slice_execution` is moved into a private helper function `_plus_one`. lambda functions have a different hash and were not utilizing the compilation cache." `Manager._simple_execution` runs `jax.pmap(lambda x: x + 1, devices=devices)` for every slice on every availability check (`get_slice_availability`, called from `__init__` and every `reshard_check_period` steps), so each check maps and compiles a new function.
Transcribed: `Manager._simple_execution` and `get_slice_availability` from pathwaysutils/elastic/manager.py at 3b4cacd^ (the parent of the fix, commit 3b4cacdc8f52483bef4e8e9862d86b526d4d33e9), docstrings shortened and the `@timing.timeit`/`timing.Timer` wrappers left out; `__init__` is cut to the device bookkeeping (`slice_to_devices` groups `jax.devices()` under slice 0, as CPU devices have no `slice_index`), `is_error_due_to_slice_down` is a stub returning False, and a driver that checks availability on three steps was added.
Hard: the lambda is made inside a method and passed straight to `jax.pmap`, which is called on the spot; the method is reached from a dict comprehension inside another method that a step loop calls.
"""
import logging
from collections.abc import Sequence

import jax
import numpy as np

_logger = logging.getLogger(__name__)


class Manager:
  """Utility class for elastic training."""

  _SIMPLE_EXECUTION_TEST_VALUE = 100

  def __init__(self, devices: Sequence[jax.Device] | None = None) -> None:
    if devices is None:
      devices = jax.devices()
    self.slice_to_devices = {0: list(devices)}
    self.good_slice_indices = self.get_slice_availability()

  def slice_device_count(self, slice_index: int) -> int:
    return len(self.slice_to_devices[slice_index])

  def is_error_due_to_slice_down(self, error: Exception) -> bool:
    return False

  def _simple_execution(self, devices: Sequence[jax.Device]) -> jax.Array:
    """Simple execution to test if a slice is available."""
    if not devices:
      raise ValueError("No devices")

    test_input = np.zeros(len(devices), dtype=float) + (
        self._SIMPLE_EXECUTION_TEST_VALUE - 1
    )

    return jax.pmap(lambda x: x + 1, devices=devices)(test_input)  # expect: jit-fresh-function

  def get_slice_availability(self) -> set[int]:
    """Returns the set of good and bad slices."""
    good_slice_indices = set()

    results = {
        slice_index: self._simple_execution(devices)
        for slice_index, devices in self.slice_to_devices.items()
    }

    for slice_index, x in results.items():
      _logger.info("Checking slice_index=%s", slice_index)
      expected = (
          np.zeros(self.slice_device_count(slice_index), dtype=float)
          + self._SIMPLE_EXECUTION_TEST_VALUE
      )
      try:
        jax.block_until_ready(x)
        if np.allclose(x, expected):
          good_slice_indices.add(slice_index)
          _logger.info("slice_index=%s good", slice_index)
        else:
          raise ValueError(
              f"Error with _simple_execution for slice_index={slice_index}."
          )
      except jax.errors.JaxRuntimeError as error:
        if not self.is_error_due_to_slice_down(error):
          raise
        _logger.info("slice_index=%s bad", slice_index)

    return good_slice_indices


manager = Manager()
for step in range(3):
  print(step, manager.get_slice_availability())
