"""Source: https://github.com/PlasmaControl/DESC/pull/1043
Library: plain-jax
Reported: DESC recompiled its projection functions between every outer optimization iteration (issue 1191: "Compiling project ... Compiling recover" printed each time); in the pull request the author explains that every call of factorize_linear_constraints returns a new project/recover function, jitted with @jit inside the function, so each one compiles again since it is a new function each time. The fix replaces them with classes whose jitted methods share one cache.
Transcribed: the two @jit-decorated local functions removed by the pull request, as shown in its diff. The rest of factorize_linear_constraints (building Z, xp and unfixed_idx from the constraints) is not in the diff, so they are passed in as parameters; `objective` is a minimal stand-in with a dim_x attribute, `put` is desc.backend.put written with .at[].set, and a loop calling factorize_linear_constraints twice (the outer optimization iterations) with a trace counter was added.
Hard: @jit decorates functions defined inside factorize_linear_constraints, which a loop of the module calls: each call makes and jits fresh closures over Z, xp and unfixed_idx, so jit's cache never hits.
"""
import jax.numpy as jnp
import numpy as np
from jax import jit

traces = 0


def put(arr, inds, vals):
    return arr.at[inds].set(vals)


class Objective:
    dim_x = 4


def factorize_linear_constraints(objective, Z, xp, unfixed_idx):
    @jit  # expect: jit-fresh-function
    def project(x):
        """Project a full state vector into the reduced optimization vector."""
        global traces
        traces += 1
        x_reduced = Z.T @ ((x - xp)[unfixed_idx])
        return jnp.atleast_1d(jnp.squeeze(x_reduced))

    @jit  # expect: jit-fresh-function
    def recover(x_reduced):
        """Recover the full state vector from the reduced optimization vector."""
        dx = put(jnp.zeros(objective.dim_x), unfixed_idx, Z @ x_reduced)
        return jnp.atleast_1d(jnp.squeeze(xp + dx))

    return project, recover


objective = Objective()
Z = np.eye(3, 2)
xp = np.zeros(4)
unfixed_idx = np.array([0, 1, 2])
x = jnp.arange(4.0)
for _ in range(2):
    project, recover = factorize_linear_constraints(objective, Z, xp, unfixed_idx)
    recover(project(x))
print("traces:", traces)  # 2: project compiles again for every factorization
