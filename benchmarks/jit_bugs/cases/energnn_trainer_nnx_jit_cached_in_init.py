"""Source: https://github.com/energnn/energnn/blob/3a309ab4acec510873d81432f55541e9a3bae204/src/energnn/trainer/trainer.py
Library: plain-jax
Correct: the trainer as fixed by energnn pull request 75 ("Cache JIT-compiled forward+VJP and optimizer-update functions once in `Trainer.__init__`"): `__init__` stores `nnx.jit(self._apply_forward_vjp, static_argnames=("get_info",))`, `nnx.jit(self._eval_forward)` and `nnx.jit(_update_params_fn)` on the instance, and every training and evaluation step calls those same three jitted functions, so each compiles once (the pull request's test asserts a single trace across steps). `_apply_forward_vjp` and `_eval_forward` are staticmethods, so `self._apply_forward_vjp` is the plain function, not a method bound to the trainer that `training_step` later changes (`train_step += 1`); `get_info` is a bool; `graphdef` is nnx's hashable graph definition. A checker that reports `jax.jit(self.method)` on an object that is mutated afterwards, or a jit made inside a method, would be wrong here.
Transcribed: `_cast_cotangent_to_primal_dtype`, `_update_params_fn`, `Trainer.__init__`, `_apply_forward_vjp`, `_eval_forward`, `training_step` and `eval_step` from src/energnn/trainer/trainer.py at 3a309ab, unchanged; the rest of the class (train, evaluation loop, checkpointing) and the orbax/tqdm imports are cut. Added the same stand-ins as the case energnn_75_trainer_nnx_jits_fresh_closures_per_step.py (`TaskLogger`, `flatdict.FlatDict`, a one-layer `GNN` with a trace counter, a quadratic `ProblemBatch`) and a driver running three training and three evaluation steps.
"""
from __future__ import annotations

import contextlib
import logging

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import nnx
from optax import GradientTransformation

logger = logging.getLogger(__name__)
traces = 0


@contextlib.contextmanager
def TaskLogger(logger, message):
    yield


class flatdict:
    class FlatDict(dict):
        def __init__(self, d, delimiter="/"):
            super().__init__()

            def _walk(prefix, value):
                if isinstance(value, dict):
                    for k, v in value.items():
                        _walk(f"{prefix}{delimiter}{k}" if prefix else str(k), v)
                else:
                    self[prefix] = value

            _walk("", d)


class GNN(nnx.Module):
    def __init__(self, rngs):
        self.linear = nnx.Linear(3, 2, rngs=rngs)

    def forward_batch(self, graph, get_info):
        global traces
        traces += 1
        decision = self.linear(graph)
        return decision, ({"norm": jnp.linalg.norm(decision)} if get_info else {})


class ProblemBatch:
    def __init__(self, context, target):
        self.context, self.target = context, target

    def get_context(self, get_info, step):
        return self.context, {}

    def get_gradient(self, decision, get_info, step):
        return decision - self.target, {}

    def get_score(self, decision, get_info, step):
        return np.asarray(jnp.mean((decision - self.target) ** 2, axis=1)), {}


def _cast_cotangent_to_primal_dtype(cotangent_pytree, primal_pytree):
    """
    Cast each leaf in `cotangent_pytree` to the dtype of the corresponding leaf in `primal_pytree`.
    Leaves that don't appear to have a .dtype are returned unchanged.
    """

    def _cast_leaf(c, p):
        try:
            target_dtype = p.dtype
        except Exception:
            # Keep the original cotangent leaf if we cannot read dtype
            return c
        return jnp.asarray(c, dtype=target_dtype)

    return jax.tree.map(_cast_leaf, cotangent_pytree, primal_pytree)


def _update_params_fn(optimizer: nnx.Optimizer, model: GNN, gradient: nnx.State) -> None:
    """JIT-compatible function that applies the optimizer update."""
    optimizer.update(model, gradient)


class Trainer:
    def __init__(
        self,
        *,
        model: GNN,
        gradient_transformation: GradientTransformation,
    ):
        self.model: GNN = model
        self.optimizer = nnx.Optimizer(self.model, gradient_transformation, wrt=nnx.Param)
        self.train_step: int = 0
        self.best_score: float | None = None

        # Cache JIT-compiled wrappers to avoid NNX re-tracing overhead each step.
        # `get_info` is static because downstream code branches on its concrete value.
        self._jit_apply = nnx.jit(self._apply_forward_vjp, static_argnames=("get_info",))
        self._jit_eval_forward = nnx.jit(self._eval_forward)
        self._jit_update_params = nnx.jit(_update_params_fn)

    @staticmethod
    def _apply_forward_vjp(graphdef, params, rest, jax_context, get_info):
        """Forward pass + VJP setup, designed to be JIT-compiled once and reused."""

        def f_forward(p, r):
            model = nnx.merge(graphdef, p, r)
            decision, _ = model.forward_batch(graph=jax_context, get_info=get_info)
            _, _, r_updated = nnx.split(model, nnx.Param, ...)
            return decision, r_updated

        (jax_decision, rest_updated), vjp_fn = jax.vjp(f_forward, params, rest)
        return jax_decision, rest_updated, vjp_fn

    @staticmethod
    def _eval_forward(model, context):
        """Forward pass for evaluation, designed to be JIT-compiled once and reused."""
        decision, info = model.forward_batch(graph=context, get_info=True)
        _, _, r_updated = nnx.split(model, nnx.Param, ...)
        return decision, info, r_updated

    def training_step(self, problem_batch: ProblemBatch, get_info: bool) -> dict:
        """
        Performs a training step to update model parameters.

        :param problem_batch: A batch of problems for training.
        :param get_info: Whether to compute information or not.
        :return: A dictionary of information about the training step, or list of dictionaries.
        """
        with TaskLogger(logger, f"Training step {self.train_step}"):

            self.model.train()  # Set model to train mode

            infos = {}
            jax_context, infos["1_context"] = problem_batch.get_context(get_info=get_info, step=self.train_step)

            graphdef, params, rest = nnx.split(self.model, nnx.Param, ...)
            jax_decision, rest_updated, vjp_fn = self._jit_apply(graphdef, params, rest, jax_context, get_info)

            nnx.update(self.model, rest_updated)
            jax_gradient, infos["3_gradient"] = problem_batch.get_gradient(
                decision=jax_decision, get_info=get_info, step=self.train_step
            )
            jax_cotangent = _cast_cotangent_to_primal_dtype(jax_gradient, jax_decision)

            # Backward pass
            rest_cotangent = jax.tree.map(jnp.zeros_like, rest_updated)
            (grads_params, _) = vjp_fn((jax_cotangent, rest_cotangent))

            self._jit_update_params(self.optimizer, self.model, grads_params)
            infos["4_update"] = {}

        # Flatten and numpify infos
        infos = flatdict.FlatDict(infos, delimiter="/")
        infos = {k: np.array(v) for k, v in infos.items()}

        return infos

    def eval_step(self, eval_step: int, problem_batch: ProblemBatch) -> tuple[list[float], dict]:
        """Evaluates the current gnn over a batch of problems.

        :param eval_step: Index of the current evaluation step.
        :param problem_batch: A problem batch.
        :return: A batch of scores and a dictionary of batched information.
        """
        with TaskLogger(logger, f"Eval step {eval_step}"):
            infos = {}

            jax_context, infos["1_context"] = problem_batch.get_context(get_info=True, step=self.train_step)

            jax_decision, infos["2_forward"], rest_updated = self._jit_eval_forward(model=self.model, context=jax_context)

            score, infos["3_score"] = problem_batch.get_score(decision=jax_decision, get_info=True, step=self.train_step)

        # Flatten and numpify infos
        infos = flatdict.FlatDict(infos, delimiter="/")
        infos = {k: np.array(v) for k, v in infos.items()}

        return score, infos


trainer = Trainer(model=GNN(nnx.Rngs(0)), gradient_transformation=optax.sgd(0.1))
batches = [
    ProblemBatch(jax.random.normal(jax.random.PRNGKey(i), (4, 3)), jnp.ones((4, 2)))
    for i in range(3)
]
for problem_batch in batches:  # one epoch: same shapes every step
    trainer.training_step(problem_batch, get_info=False)
    trainer.train_step += 1
after_training = traces
for step, problem_batch in enumerate(batches):
    score, _ = trainer.eval_step(step, problem_batch)
    print(f"eval step {step}: score={score.mean():.4f}")
print("forward traced", after_training, "time(s) in training,", traces - after_training, "in evaluation")
assert after_training == 1 and traces - after_training == 1
