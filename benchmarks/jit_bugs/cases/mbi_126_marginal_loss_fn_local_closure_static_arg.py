"""Source: https://github.com/ryan112358/mbi/pull/126
Library: plain-jax
Reported: "`MarginalLossFn` was an opaque closure, forcing it to be a static arg in `jax.jit`. Different measurements -> different closure -> cache miss -> recompilation." `from_linear_measurements` defines `loss_fn` locally and wraps it in a frozen attrs `MarginalLossFn`, which hashes by its fields (the local function by identity); `ApproxMirrorDescent._step` is jitted with `static_argnames=["self", "loss_fn"]`, and `estimate` and `precompile` each build a new `MarginalLossFn` through `_initialize`, so `precompile` warms a cache entry `estimate` never hits, and every `estimate` call compiles `_step` again.
Transcribed: `LinearMeasurement`, `MarginalLossFn`, `from_linear_measurements` (src/mbi/marginal_loss.py), `_initialize` (src/mbi/estimation.py) and `ApproxMirrorDescentState`/`ApproxMirrorDescent` (src/mbi/approximate_oracles.py) at e4911eb^ (the parent of the fix); `CliqueVector` is replaced by a dict of arrays (`project` is a lookup, `zeros` a dict of zeros), `Factor.datavector` by a module-level `datavector`, `maximal_subset` by the identity, `convex_generalized_belief_propagation` by a softmax stand-in with the same call shape, chex types by `jax.Array`; the Lipschitz estimate (only with a domain object) and the final oracle call are left out, docstrings shortened. Added a trace counter in `_step` and a driver that precompiles and then estimates twice with the same measurements.
Hard: the value in the static position is a frozen attrs instance, hashed by value, whose field holds a function defined inside `from_linear_measurements`; it is built in `_initialize`, which both `estimate` and `precompile` call, and reaches `_step` as a keyword argument named in `static_argnames` (once through `.lower`).
"""
import functools
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import attr
import jax
import jax.numpy as jnp

traces = 0

Clique = tuple


def datavector(x):
    return x.ravel()


def maximal_subset(cliques):
    return cliques


@functools.partial(
    jax.tree_util.register_dataclass,
    meta_fields=["clique", "stddev", "query"],
    data_fields=["values"],
)
@attr.dataclass(frozen=True)
class LinearMeasurement:
    """A class for representing a private linear measurement of a marginal."""

    noisy_measurement: jax.Array
    clique: Clique = attr.field(converter=tuple)
    stddev: float = 1.0
    query: Callable[[Any], jax.Array] = datavector


@attr.dataclass(frozen=True)
class MarginalLossFn:
    """A Loss function over the concatenated vector of marginals."""

    cliques: Sequence[Clique] = attr.field(converter=tuple)
    loss_fn: Callable[[Any], jax.Array]
    lipschitz: float | None = None

    def __call__(self, marginals) -> jax.Array:
        return self.loss_fn(marginals)


def from_linear_measurements(
    measurements: list[LinearMeasurement],
    norm: str = "l2",
    normalize: bool = False,
    domain=None,
) -> MarginalLossFn:
    """Construct a MarginalLossFn from a list of LinearMeasurements."""
    if norm not in ["l1", "l2"]:
        raise ValueError(f"Unknown norm {norm}.")
    cliques = [m.clique for m in measurements]
    maximal_cliques = maximal_subset(cliques)

    def loss_fn(marginals) -> jax.Array:
        loss = 0.0
        for M in measurements:
            mu = marginals[M.clique]
            # avoid introducing inf/nan from invariants
            stddev = jnp.maximum(M.stddev, 1e-12)
            diff = (M.query(mu) - M.noisy_measurement) / stddev
            if norm == "l2":
                loss += 0.5 * jnp.vdot(diff, diff)
            elif norm == "l1":
                loss += jnp.sum(jnp.abs(diff))
        return loss

    return MarginalLossFn(maximal_cliques, loss_fn)


def _initialize(domain, loss_fn, known_total, potentials):
    """Initializes loss function, total records, and potentials for estimation algorithms."""
    if isinstance(loss_fn, list):
        loss_fn = from_linear_measurements(loss_fn, domain=None)
    elif known_total is None:
        raise ValueError("Must set known_total if giving a custom MarginalLossFn")

    if potentials is None:
        potentials = {cl: jnp.zeros(tuple(domain[a] for a in cl)) for cl in loss_fn.cliques}

    return loss_fn, known_total, potentials


def convex_generalized_belief_propagation(potentials, total, state=None, mesh=None, iters=1, damping=0.5):
    mu = {cl: total * jax.nn.softmax(p.ravel()).reshape(p.shape) for cl, p in potentials.items()}
    return mu, state


class ApproxMirrorDescentState(NamedTuple):
    """State for mirror descent with approximate marginal inference."""

    potentials: Any
    mu: Any
    messages: Any


@attr.dataclass(frozen=True)
class ApproxMirrorDescent:
    """Mirror descent estimator using approximate marginal inference."""

    stepsize: float
    oracle_iters: int = 1
    damping: float = 0.5
    mesh: jax.sharding.Mesh | None = None

    def _init(self, potentials, total) -> ApproxMirrorDescentState:
        """Initialize the optimization state."""
        # Initialize messages so jit sees a consistent pytree structure.
        mu, messages = convex_generalized_belief_propagation(
            potentials,
            total,
            state=None,
            mesh=self.mesh,
            iters=self.oracle_iters,
            damping=self.damping,
        )
        return ApproxMirrorDescentState(potentials, mu, messages)

    @functools.partial(jax.jit, static_argnames=["self", "loss_fn"])
    def _step(
        self,
        state: ApproxMirrorDescentState,
        total: jax.Array | float,
        *,
        loss_fn: MarginalLossFn,
    ) -> ApproxMirrorDescentState:
        """Perform a single mirror descent step."""
        global traces
        traces += 1
        mu, messages = convex_generalized_belief_propagation(
            state.potentials,
            total,
            state=state.messages,
            mesh=self.mesh,
            iters=self.oracle_iters,
            damping=self.damping,
        )
        dL = jax.grad(loss_fn)(mu)
        potentials = jax.tree.map(lambda p, g: p - self.stepsize * g, state.potentials, dL)
        return ApproxMirrorDescentState(potentials, mu, messages)

    def estimate(
        self,
        domain,
        loss_fn: MarginalLossFn | list[LinearMeasurement],
        *,
        known_total: float | None = None,
        potentials=None,
        iters: int = 1000,
        callback_fn=lambda _: None,
    ):
        """Run mirror descent and return pseudo-marginals."""
        loss_fn, known_total, potentials = _initialize(
            domain, loss_fn, known_total, potentials
        )
        state = self._init(potentials, known_total)

        for _ in range(iters):
            state = self._step(state, known_total, loss_fn=loss_fn)  # expect: static-fresh-callable
            callback_fn(state.mu)
        return state.mu

    def precompile(
        self,
        domain,
        loss_fn: MarginalLossFn | list[LinearMeasurement],
        *,
        known_total: float | None = None,
        potentials=None,
    ) -> None:
        """Warm up the JIT cache for ``estimate``."""
        loss_fn, known_total, potentials = _initialize(
            domain, loss_fn, known_total, potentials
        )
        state = self._init(potentials, known_total)

        # lower().compile() populates the jit cache without executing.
        self._step.lower(self, state, known_total, loss_fn=loss_fn).compile()  # expect: static-fresh-callable


domain = {"A": 2, "B": 3}
measurements = [
    LinearMeasurement(jnp.array([4.0, 6.0]), ("A",)),
    LinearMeasurement(jnp.arange(6.0), ("A", "B")),
]
estimator = ApproxMirrorDescent(stepsize=0.1)
estimator.precompile(domain, measurements, known_total=10.0)
estimator.estimate(domain, measurements, known_total=10.0, iters=3)
estimator.estimate(domain, measurements, known_total=10.0, iters=3)
print("traces:", traces)  # 3: precompile's and one per estimate, for equal measurements
