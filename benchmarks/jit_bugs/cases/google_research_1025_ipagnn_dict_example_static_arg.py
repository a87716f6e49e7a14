"""Source: https://github.com/google-research/google-research/issues/1025
Library: plain-jax
Reported: "ipagnn: non-hashable static arguments. `example` is a dict of numpy arrays, neither of which are hashable" (pointing at ipagnn/adapters/common_adapters.py line 108); "suspect this is due to breaking changes in jax": `BaseAdapter.create_optimizer` jits its local `create_model(rng, example, model_cls)` with `static_argnums=(1, 2)` and passes `example`, the first dataset item converted by `as_example`, a dict whose values are numpy arrays. Since JAX stopped hashing unhashable static arguments by identity (0.2.6), the call fails with "Non-hashable static arguments are not supported".
Transcribed: `BaseAdapter.__init__`, `BaseAdapter.as_example` and `BaseAdapter.create_optimizer`, and `SequenceAdapter.as_example`, from ipagnn/adapters/common_adapters.py at 0c1bbe5f (the version the report links to), unchanged except `jax.tree_map` renamed `jax.tree.map` (removed from current JAX). Added minimal stand-ins: `optimizer_utils.create_optimizer` (returns the model), a `_Tensor` with `.numpy()` for the TensorFlow dataset's values, and a run configuration with a one-item dataset of code statements; the driver builds a `SequenceAdapter` and calls `create_optimizer`, as the training workflow does. `create_model`'s body uses flax.nn, the pre-linen Flax API that current Flax no longer has, but the call fails on hashing `example` before the body is traced, as reported.
Hard: `example` reaches the static position through `self.as_example(next(iter(dataset)))`, which a subclass overrides to return `jax.tree_map(lambda x: x.numpy(), dataset_item)`; nothing in the method body shows it is a dict of numpy arrays.
"""
import functools
import types

import flax
import jax
import numpy as np


class optimizer_utils:  # stand-in for ipagnn.lib.optimizer_utils
  @staticmethod
  def create_optimizer(model, learning_rate):
    return model


class BaseAdapter:
  """The base Adapter class for connecting datasets and models."""

  def __init__(self, info, config):
    self.info = info
    self.config = config

  def as_example(self, dataset_item):
    """Converts a single item from the raw dataset iterator into an example."""
    return dataset_item

  def create_optimizer(self, run_configuration, rng=None):
    """Creates the optimizer for training."""
    @functools.partial(jax.jit, static_argnums=(1, 2))
    def create_model(rng, example, model_cls):
      with flax.nn.attention.Cache().mutate() as cache_def:
        _, initial_params = model_cls.init(
            rng,
            example,
            cache=cache_def)
      model = flax.nn.Model(model_cls, initial_params)
      return model, cache_def

    config = self.config
    dataset = run_configuration.dataset_info.dataset

    rng = rng if rng is not None else jax.random.PRNGKey(0)
    learning_rate = config.opt.learning_rate
    example = self.as_example(next(iter(dataset)))
    model_cls = run_configuration.model
    model, unused_cache_def = create_model(rng, example, model_cls)  # expect: static-unhashable, static-dynamic-child
    return optimizer_utils.create_optimizer(model, learning_rate)


class SequenceAdapter(BaseAdapter):
  """Adapts datasets for use with sequence models."""

  def as_example(self, dataset_item):
    example = jax.tree.map(lambda x: x.numpy(), dataset_item)
    return example


class _Tensor:  # stand-in for the tf.Tensor values of the TensorFlow dataset
  def __init__(self, value):
    self.value = value

  def numpy(self):
    return self.value


class IPAGNN:  # stand-in for the model class (a flax.nn.Module subclass)
  pass


config = types.SimpleNamespace(opt=types.SimpleNamespace(learning_rate=0.01))
dataset = [{
    'code_statements': _Tensor(np.zeros((1, 16, 4), np.int32)),
    'code_length': _Tensor(np.array([16], np.int32)),
    'target_output': _Tensor(np.zeros((1, 1), np.int32)),
}]
run_configuration = types.SimpleNamespace(
    dataset_info=types.SimpleNamespace(dataset=dataset), model=IPAGNN)
adapter = SequenceAdapter(info=None, config=config)
optimizer = adapter.create_optimizer(run_configuration)
