"""Source: https://github.com/jthlab/phlash/blob/96a6e3f8e01053271e88d21c97862198422d9ae0/src/phlash/params.py
Library: jax_dataclasses
Correct: MCMCParams is a jax_dataclasses.pytree_dataclass whose pattern (a PSMC pattern string such as "14*1+1*2") and theta, alpha and beta are declared jdc.Static[...]: they go into the tree structure, hashable and compared by value (theta is a numpy float64, Watterson's estimate computed from a numpy array, which hashes by value like a float), and only t_tr, c_tr and rho_over_theta_tr are leaves. fit() in mcmc.py ravels the initial MCMCParams, unravels a batch of perturbed particles with vmap, and passes that batched MCMCParams to the jitted elpd in a traced position; inside, Pattern(mcp.pattern) parses the static string at trace time.
Transcribed: Pattern and softplus_inv from src/phlash/util.py and MCMCParams from params.py (its to_dm, which builds a DemographicModel, cut); from fit() in src/phlash/mcmc.py (same commit), the default init, the particle set-up with ravel_pytree and the jitted elpd with its vmapped _elpd_ll; the data loading was replaced by a small numpy array of chunks from which watterson is computed the same way, and phlash.model.log_density (the HMM likelihood on the GPU kernel) by a stand-in reading mcp.pattern, mcp.t, mcp.c and mcp.rho, so the call's kern, afs and afs_transform arguments were dropped; a second elpd call was added.
"""
import jax
import jax.numpy as jnp
import jax.scipy as jsp
import jax_dataclasses as jdc
import numpy as np
from jax import vmap, jit
from jax.flatten_util import ravel_pytree


class Pattern:
    """Class for parsing PSMC-style pattern strings."""

    def __init__(self, pattern: str):
        try:
            epochs = self._epochs = []
            for s in pattern.split("+"):
                if "*" in s:
                    k, width = map(int, s.split("*"))
                else:
                    k = 1
                    width = int(s)
                epochs += [width] * k
        except Exception:
            raise ValueError("could not parse pattern")
        if len(epochs) == 0:
            raise ValueError("pattern must contain at least one epoch")
        if any(e <= 0 for e in epochs):
            raise ValueError("epochs must be positive")

    @property
    def M(self):
        return sum(self._epochs)

    def __len__(self) -> int:
        return len(self._epochs)

    def expand(self, x):
        assert len(x) == len(self)
        return sum([e * [xx] for e, xx in zip(self._epochs, x)], [])


def softplus_inv(y):
    # y > 0
    return y + jnp.log1p(-jnp.exp(-y))


@jdc.pytree_dataclass
class MCMCParams:
    pattern: jdc.Static[str]
    t_tr: jax.Array
    c_tr: jax.Array
    rho_over_theta_tr: float
    theta: jdc.Static[float]
    alpha: jdc.Static[float]
    beta: jdc.Static[float]

    @classmethod
    def from_linear(
        cls,
        pattern: str,
        t1: float,
        tM: float,
        c: jax.Array,
        theta: float,
        rho: float,
        alpha: float = 0.0,
        beta: float = 0.0,
    ) -> "MCMCParams":
        dtM = tM - t1
        t_tr = jnp.array([jnp.log(t1), jnp.log(dtM)])
        assert len(Pattern(pattern)) == len(c)  # one c per epoch
        rho_over_theta_tr = jsp.special.logit((rho / theta - 0.1) / 9.9)
        return cls(
            pattern=pattern,
            c_tr=softplus_inv(c),
            t_tr=t_tr,
            rho_over_theta_tr=rho_over_theta_tr,
            theta=theta,
            alpha=alpha,
            beta=beta,
        )

    @property
    def M(self):
        return Pattern(self.pattern).M

    @property
    def rho_over_theta(self):
        # this transformation ensures that rho/theta is in [.1, 10]
        return 0.1 + 9.9 * jsp.special.expit(self.rho_over_theta_tr)

    @property
    def rho(self):
        return self.rho_over_theta * self.theta

    @property
    def t(self):
        t1, dtM = jnp.exp(self.t_tr)
        tM = t1 + dtM
        return t1, tM

    @property
    def c(self):
        return jax.nn.softplus(self.c_tr)

    @property
    def log_c(self):
        return jnp.log(self.c)


def log_density(mcp, c, inds, warmup):
    # stand-in for phlash.model.log_density
    t1, tM = mcp.t
    cs = jnp.array(Pattern(mcp.pattern).expand(mcp.c))
    return c[0] * jnp.sum(jnp.log(cs)) - c[1] * mcp.rho * len(inds) + c[2] * jnp.log(tM - t1)


options = {}
key = options.get("key", jax.random.PRNGKey(1))
window_size = options.get("window_size", 100)
overlap = options.get("overlap", 500)
chunks = np.random.default_rng(0).choice([-1, 0, 0, 0, 1], size=(8, overlap + 1000)).astype(np.int8)

ch0 = chunks[:, overlap:]
watterson = ch0[ch0 > -1].mean() / window_size
watterson = options.get("theta", watterson)
theta = watterson  # i.e., N0=1
t1 = options.get("t1", 1e-4)
tM = options.get("tM", 15.0)
rho = options.get("rho_over_theta", 1.0) * theta
pat = "14*1+1*2"
init = MCMCParams.from_linear(
    pattern=pat,
    rho=rho * window_size,
    t1=t1,
    tM=tM,
    c=jnp.ones(len(Pattern(pat))),  # len(c)==len(Pattern(pattern))
    theta=theta * window_size,
    alpha=options.get("alpha", 0.0),
    beta=options.get("beta", 0.0),
)
assert isinstance(init, MCMCParams)

# set up the particles and add noise
M = init.M
x0, unravel = ravel_pytree(init)
ndim = len(x0)
prior_mu = x0
key, rng_key_init = jax.random.split(key, 2)
prior_prec = options.get("sigma", 1.0) * jnp.eye(ndim)
initial_particles = vmap(unravel)(
    jax.random.multivariate_normal(
        rng_key_init,
        prior_mu,
        prior_prec,
        shape=(options.get("num_particles", 500),),
    )
)

N_test = 4


@jit
def elpd(mcps):
    @vmap
    def _elpd_ll(mcp):
        return log_density(
            mcp,
            c=jnp.array([0.0, 1.0, 1.0]),
            inds=jnp.arange(N_test),
            warmup=jnp.full([N_test, 1], -1, dtype=jnp.int8),
        )

    return _elpd_ll(mcps).mean()


print(type(init.theta).__name__, M, elpd(initial_particles))
print(elpd(initial_particles))
