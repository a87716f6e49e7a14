"""Source: https://github.com/google-deepmind/kfac-jax/commit/0457eaaeb6a3a2285f54cd458f3ba000951a56ab
Library: plain-jax
Reported: "Fixing all Losses to return everything in non-auxiliary data during flattening, to avoid any tracer leaks when the weight is dynamic." Before the commit each loss's hand-written `tree_flatten` returned the loss's `variance` and `weight` in its aux data (`aux = dict(variance=self.variance, weight=self.weight)`), while `LossFunction.__init__` accepts a scalar *array* as weight (`Numeric`). A loss whose weight is an array, or a tracer, is then compared as pytree metadata: each new weight value recompiles the jitted function, a traced weight fails jit's metadata equality check, and differentiating with respect to the weight through a jitted function silently gives zero.
Transcribed: `LossFunction.__init__`, `weight`, `evaluate` and `tree_unflatten`, and `NormalMeanNegativeLogProbLoss.__init__`, its properties and `tree_flatten`, from kfac_jax/_src/loss_functions.py at 0457eaa^ (commit 2dcd11352052d2683aca388eb8414aa302ab7aff); `utils.Finalizable` is dropped, `_evaluate` keeps only its `normalize_log_prob=False` branch (the distrax log-prob branch is left out), and the Fisher methods are left out. A jitted `loss_value`, calls with two array weights, and a gradient with respect to the weight were added.
Hard: the array reaches the aux data through a constructor parameter typed `Numeric` (an array or a Python number), stored in an attribute and returned inside a dict from a hand-written `tree_flatten`; in the last call it is a tracer of `jax.grad`.
"""
import abc
from typing import Union

import jax
import jax.numpy as jnp

Array = jax.Array
Numeric = Union[Array, int, float]


class LossFunction(abc.ABC):
  """Abstract base class for loss functions."""

  def __init__(self, weight: Numeric):
    if not isinstance(weight, (int, float)) and type(weight) is not object:  # pylint: disable=unidiomatic-typecheck
      if not isinstance(weight, Array) or weight.size > 1:
        raise ValueError("`weight` must be a scalar value.")
    super().__init__()
    self._weight = weight

  @property
  def weight(self) -> Numeric:
    """The relative weight of the loss."""
    return self._weight

  @property
  @abc.abstractmethod
  def targets(self) -> Array | None:
    """The targets (if present) used for evaluating the loss."""

  @abc.abstractmethod
  def _evaluate(self, targets: Array) -> Array:
    pass

  def evaluate(
      self,
      targets: Array | None = None,
      coefficient_mode: str = "regular",
  ) -> Array:
    if targets is None and self.targets is None:
      raise ValueError("Cannot evaluate losses with unspecified targets.")
    elif targets is None:
      targets = self.targets
    if coefficient_mode == "regular":
      multiplier = self.weight
    elif coefficient_mode == "sqrt":
      multiplier = jnp.sqrt(self.weight)
    elif coefficient_mode == "off":
      multiplier = 1.0
    else:
      raise ValueError(f"Unrecognized coefficient_mode={coefficient_mode}.")
    return self._evaluate(targets) * multiplier

  @classmethod
  def tree_unflatten(cls, aux_data, children):
    return cls(*children, **aux_data)  # pytype: disable=not-instantiable


@jax.tree_util.register_pytree_node_class
class NormalMeanNegativeLogProbLoss(LossFunction):
  """Loss log prob loss for a normal distribution parameterized by a mean vector."""

  def __init__(
      self,
      mean: Array,
      targets: Array | None = None,
      variance: Numeric = 0.5,
      weight: Numeric = 1.0,
      normalize_log_prob: bool = True,
  ):
    if not isinstance(variance, (int, float)) and type(variance) is not object:  # pylint: disable=unidiomatic-typecheck
      if not isinstance(variance, Array) or variance.size > 1:
        raise ValueError("`variance` must be either a python scalar or a "
                         "scalar array.")
    self._mean = mean
    self._targets = targets
    self._variance = variance
    self._normalize_log_prob = normalize_log_prob

    super().__init__(weight=weight)

  @property
  def mean(self) -> Array:
    return self._mean

  @property
  def variance(self) -> Numeric:
    return self._variance

  @property
  def targets(self) -> Array | None:
    return self._targets

  def _evaluate(self, targets: Array) -> Array:
    # keeps leading dims intact
    return 0.5 * jnp.sum(jnp.square(
        self.mean - targets), axis=range(1, targets.ndim)) / self.variance

  def tree_flatten(self):
    aux = dict(variance=self.variance, weight=self.weight)
    return (self.mean, self.targets), aux


@jax.jit
def loss_value(loss: LossFunction) -> Array:
  return jnp.sum(loss.evaluate())


mean = jnp.ones((4, 3))
targets = jnp.zeros((4, 3))
print(loss_value(NormalMeanNegativeLogProbLoss(mean, targets, weight=jnp.array(0.5))))  # expect: static-dynamic-child
print(loss_value(NormalMeanNegativeLogProbLoss(mean, targets, weight=jnp.array(0.25))))  # expect: static-dynamic-child
# d/dweight of weight * loss is the unweighted loss (12.0); the weight in the aux data is a constant to jit:
print(jax.grad(lambda w: loss_value(NormalMeanNegativeLogProbLoss(mean, targets, weight=w)))(0.5))  # expect: static-dynamic-child
