"""Source: https://github.com/kazewong/flowMC/commit/7eefc4cfcb91cbdb72783dbfaabace741413aaa1
Library: plain-jax
Reported: the parent commit d03432e adds a test that calls the `TakeLocalSteps` strategy twice with the same resources and notes "It seems like TakeLocalSteps would recompile"; this commit ("Turns out we don't have to complicate things to not recompile") moves `body` and `sample` out of `__call__`. Before it, every `__call__` defines new local `body`/`sample` closures and runs `eqx.filter_jit(eqx.filter_vmap(sample, ...))(...)`, so each call hands filter_jit a new function and everything is traced and compiled again. Running it here, the MALA body is traced anew and the backend compiles again on the second call with identical inputs (backend compilations 5 after the first call, 6 after the second; "Compiling MALA body" printed on both calls).
Transcribed: src/flowMC/strategy/take_steps.py, strategy/base.py, resource/base.py, resource/log_pdf.py, resource/local_kernel/base.py, resource/local_kernel/MALA.py and resource/buffers.py at the parent commit d03432e66030f86524eb766f76031bc157e9ca9a (docstrings shortened, imports gathered, `save_resource`/`load_resource` bodies kept), and test_take_local_MALA_step from test/unit/test_strategies.py there as the driver; a count of backend compilations (a `jax.monitoring` listener) was added.
Hard: `sample` is a `def` inside `__call__` that closes over other locals; the freshly made function reaches filter_jit through `eqx.filter_vmap(...)` on the same line, and `__call__` runs once per strategy step.
Not marked: `ProposalBase.tree_flatten` puts a dict (`{"kwargs": ...}`) in its aux data, but the kernel is only closed over by `body`, never passed through a jit boundary, so that aux data is never hashed here.
"""
from abc import ABC, abstractmethod
from typing import Callable, Self, TypeVar

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
from jax.scipy.stats import multivariate_normal
from jaxtyping import Array, Bool, Float, Int, PRNGKeyArray, PyTree

compiles = 0
def _count(event, duration, **kwargs):
    global compiles
    if event == "/jax/core/compile/backend_compile_duration":
        compiles += 1
jax.monitoring.register_event_duration_secs_listener(_count)


# flowMC/resource/base.py
class Resource(ABC):
    """Base class for resources."""

    @abstractmethod
    def __init__(self):
        raise NotImplementedError

    @abstractmethod
    def print_parameters(self):
        raise NotImplementedError

    @abstractmethod
    def save_resource(self, path: str):
        raise NotImplementedError

    @abstractmethod
    def load_resource(self, path: str) -> Self:
        raise NotImplementedError


# flowMC/resource/log_pdf.py
class LogPDF(Resource):
    def __init__(
        self,
        logpdf: Callable[[Float[Array, " n_dim"], dict], Float],
    ):
        self.logpdf = logpdf

    def __call__(
        self,
        position: Float[Array, "nstep  n_dim"],
        data: dict,
    ) -> Float[Array, "nstep 1"]:
        return self.logpdf(position, data)

    def print_parameters(self):
        raise NotImplementedError

    def save_resource(self, path):
        raise NotImplementedError

    def load_resource(self, path) -> Self:
        raise NotImplementedError


# flowMC/resource/local_kernel/base.py
@jax.tree_util.register_pytree_node_class
class ProposalBase(Resource):
    def __init__(
        self,
        **kwargs,
    ):
        self.kwargs = kwargs

    @abstractmethod
    def kernel(
        self,
        rng_key: PRNGKeyArray,
        log_pdf: Callable[[Float[Array, " n_dim"], PyTree], Float[Array, "1"]],
        position: Float[Array, "nstep  n_dim"],
        log_prob: Float[Array, "nstep 1"],
        data: PyTree,
    ) -> tuple[
        Float[Array, "nstep  n_dim"], Float[Array, "nstep 1"], Int[Array, "n_step 1"]
    ]:
        """Kernel for one step in the proposal cycle."""

    def tree_flatten(self):
        children = ()

        aux_data = {"kwargs": self.kwargs}
        return (children, aux_data)

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        return cls(*children, **aux_data)


# flowMC/resource/local_kernel/MALA.py
class MALA(ProposalBase):
    """Metropolis-adjusted Langevin algorithm sampler class."""

    step_size: Float

    def __init__(
        self,
        step_size: Float,
    ):
        super().__init__()
        self.step_size = step_size

    def kernel(
        self,
        rng_key: PRNGKeyArray,
        log_pdf: Callable[[Float[Array, " n_dim"], PyTree], Float[Array, "1"]],
        position: Float[Array, " n_dim"],
        log_prob: Float[Array, "1"],
        data: PyTree,
    ) -> tuple[Float[Array, " n_dim"], Float[Array, "1"], Int[Array, "1"]]:
        """Metropolis-adjusted Langevin algorithm kernel (a single chain)."""

        def body(
            carry: tuple[Float[Array, " n_dim"], float, dict],
            this_key: PRNGKeyArray,
        ) -> tuple[
            tuple[Float[Array, " n_dim"], float, dict],
            tuple[Float[Array, " n_dim"], Float[Array, "1"], Float[Array, " n_dim"]],
        ]:
            print("Compiling MALA body")
            this_position, dt, data = carry
            dt2 = dt * dt
            this_log_prob, this_d_log = jax.value_and_grad(log_pdf)(this_position, data)
            proposal = this_position + jnp.dot(dt2, this_d_log) / 2
            proposal += jnp.dot(
                dt, jax.random.normal(this_key, shape=this_position.shape)
            )
            return (proposal, dt, data), (proposal, this_log_prob, this_d_log)

        key1, key2 = jax.random.split(rng_key)

        dt: Float = self.step_size
        dt2 = dt * dt

        _, (proposal, logprob, d_logprob) = jax.lax.scan(
            body, (position, dt, data), jnp.array([key1, key1])
        )

        ratio = logprob[1] - logprob[0]
        ratio -= multivariate_normal.logpdf(
            proposal[0], position + jnp.dot(dt2, d_logprob[0]) / 2, dt2
        )
        ratio += multivariate_normal.logpdf(
            position, proposal[0] + jnp.dot(dt2, d_logprob[1]) / 2, dt2
        )

        log_uniform = jnp.log(jax.random.uniform(key2))
        do_accept: Bool[Array, " n_dim"] = log_uniform < ratio

        position = jnp.where(do_accept, proposal[0], position)
        log_prob = jnp.where(do_accept, logprob[1], logprob[0])

        return position, log_prob, do_accept

    def print_parameters(self):
        print("MALA parameters:")
        print(f"step_size: {self.step_size}")

    def save_resource(self, path):
        pass

    def load_resource(self, path):
        raise NotImplementedError


# flowMC/resource/buffers.py
TBuffer = TypeVar("TBuffer", bound="Buffer")

class Buffer(Resource):

    name: str
    buffer: np.ndarray
    current_position: int = 0

    @property
    def n_chains(self) -> int:
        return self.buffer.shape[0]

    @property
    def n_steps(self) -> int:
        return self.buffer.shape[1]

    @property
    def n_dims(self) -> int:
        return self.buffer.shape[2]

    def __init__(self, name: str, n_chains: int, n_steps: int, n_dims: int):
        self.name = name
        self.buffer = np.zeros((n_chains, n_steps, n_dims))
        self.current_position = 0

    def update_buffer(self, updates: Array, length: int, start: int = 0):
        self.buffer[:, start: start + length] = updates
        self.current_position = start + length

    def print_parameters(self):
        print(
            f"Buffer: {self.n_chains} chains, {self.n_steps} steps, {self.n_dims} dimensions"
        )

    def save_resource(self, path: str):
        np.savez(
            path + self.name,
            name=self.name,
            buffer=self.buffer,
        )

    def load_resource(self: TBuffer, path: str) -> TBuffer:
        data = np.load(path)
        buffer = data["buffer"]
        result = Buffer(data["name"], buffer.shape[0], buffer.shape[1], buffer.shape[2])
        result.buffer = buffer
        return result # type: ignore


# flowMC/strategy/base.py
class Strategy(ABC):
    """Base class for strategies."""

    @abstractmethod
    def __init__(self):
        raise NotImplementedError

    @abstractmethod
    def __call__(
        self,
        rng_key: PRNGKeyArray,
        resources: dict[str, Resource],
        initial_position: Float[Array, "n_chains n_dim"],
        data: dict,
    ) -> tuple[
        PRNGKeyArray,
        dict[str, Resource],
        Float[Array, "n_chains n_dim"],
    ]:
        raise NotImplementedError


# flowMC/strategy/take_steps.py
class TakeLocalSteps(Strategy):

    kernel_name: str
    buffer_name: str
    n_steps: int
    thinning: int
    verbose: bool

    def __str__(self):
        return "Take " + str(self.n_steps) + " local steps with " + self.kernel_name

    def __init__(
        self,
        kernel_name: str,
        buffer_name: str,
        n_steps: int,
        thinning: int = 1,
        verbose: bool = False,
    ):
        self.kernel_name = kernel_name
        self.buffer_name = buffer_name
        self.n_steps = n_steps
        self.thinning = thinning
        self.verbose = verbose

    def __call__(
        self,
        rng_key: PRNGKeyArray,
        resources: dict[str, Resource],
        initial_position: Float[Array, "n_chains n_dim"],
        data: dict,
    ) -> tuple[
        PRNGKeyArray,
        dict[str, Resource],
        Float[Array, "n_chains n_dim"],
    ]:
        logpdf = resources['LogPDF']
        assert isinstance(logpdf, LogPDF), "LogPDF resource must be a LogPDF"
        logpdf = logpdf.logpdf
        kernel = resources[self.kernel_name]
        assert isinstance(kernel, ProposalBase), "Kernel resource must be a ProposalBase"
        buffer = resources[self.buffer_name]
        assert isinstance(buffer, Buffer), "Buffer resource must be a Buffer"

        def body(carry, data):
            key, position, log_prob = carry
            position, log_prob, do_accept = kernel.kernel(key, logpdf, position, log_prob, data)
            return (key, position, log_prob), (position, log_prob, do_accept)

        def sample(rng_key, initial_position, data):
            (last_key, last_position, last_log_prob), (positions, log_probs, do_accepts) = jax.lax.scan(body, (rng_key, initial_position, logpdf(initial_position, data)), length=self.n_steps)
            return positions, log_probs, do_accepts

        positions, log_probs, do_accepts = eqx.filter_jit(eqx.filter_vmap(sample, in_axes=(0, 0, None)))(rng_key, initial_position, data)  # expect: jit-fresh-function

        buffer.update_buffer(positions, self.n_steps, buffer.current_position)

  
        return rng_key, resources, positions


# test/unit/test_strategies.py
def log_posterior(x, data={}):
    return -0.5 * jnp.sum(x**2)


def test_take_local_MALA_step():
    PDF_resource = LogPDF(log_posterior)
    buffer_resource = Buffer("test_buffer", 5, 10, 2)
    kernel = MALA(1.0)

    resources = {
        "LogPDF": PDF_resource,
        "test_buffer": buffer_resource,
        "MALA": kernel,
    }

    strategy = TakeLocalSteps("MALA", "test_buffer", 3, 1)
    strategy(rng_key=jax.random.split(jax.random.PRNGKey(42),5), resources=resources, initial_position=jax.random.normal(jax.random.PRNGKey(42), shape=(5, 2)), data={})
    print("compiles after the first call:", compiles)

    strategy(rng_key=jax.random.split(jax.random.PRNGKey(42),5), resources=resources, initial_position=jax.random.normal(jax.random.PRNGKey(42), shape=(5, 2)), data={})
    print("compiles after the second call:", compiles)


test_take_local_MALA_step()
