"""Source: https://github.com/QuantEcon/lecture-jax/blob/82959614a325183cdc5401d1a4e7a499a48b9e73/lectures/markov_asset.md
Library: plain-jax
Correct: the Markov asset pricing lecture jits its spectral-radius helper once at module level as `jax.jit(power_iteration_sr, static_argnums=(1,2))`, making `num_iterations` (a Python loop bound) and `seed` (fed to `PRNGKey`) static. Both are ints with defaults; `test_stability` calls it with the matrix only, so the defaults stay Python constants inside the trace, and a call that does pass them passes hashable ints; it compiles once per matrix shape (and once per distinct pair of ints). In the review (lecture-jax issue 95) the maintainers noted that the static arguments were only unnecessary because the lecture uses the defaults ("If readers hope to increase the number of iterations or the seed using this function, they will run into `TracerIntegerConversionError`"), and removed them in pull request 97. A checker that reports `static_argnums` pointing at defaulted parameters the caller leaves out, or ints in static positions, would be wrong here.
Transcribed: `power_iteration_sr`, its `jax.jit(..., static_argnums=(1,2))` line and `test_stability` from lectures/markov_asset.md at 8295961 (the parent of pull request 97), unchanged but for a trace counter in `power_iteration_sr`. The lecture's model (`create_model` with `quantecon.tauchen`, `compute_K`) is cut; the driver tests two stable 3x3 matrices and calls the function once with explicit arguments, with a trace counter.
"""
import jax
import jax.numpy as jnp

traces = 0


def power_iteration_sr(A, num_iterations=15, seed=1234):
    " Estimates the spectral radius of A via power iteration. "
    global traces
    traces += 1

    # Initialize
    key = jax.random.PRNGKey(seed)
    b_k = jax.random.normal(key, (A.shape[1],))
    sr = 0

    for _ in range(num_iterations):
        # calculate the matrix-by-vector product Ab
        b_k1 = jnp.dot(A, b_k)

        # calculate the norm
        b_k1_norm = jnp.linalg.norm(b_k1)

        # Record the current estimate of the spectral radius
        sr = jnp.sum(b_k1 * b_k)/jnp.sum(b_k * b_k)

        # re-normalize the vector and continue
        b_k = b_k1 / b_k1_norm

    return sr

power_iteration_sr = jax.jit(power_iteration_sr, static_argnums=(1,2))


def test_stability(Q):
    """
    Assert that the spectral radius of matrix Q is < 1.
    """
    sr = power_iteration_sr(Q)
    assert sr < 1, f"Spectral radius condition failed with radius = {sr}"


test_stability(0.5 * jnp.eye(3))
test_stability(jnp.array([[0.2, 0.1, 0.0], [0.1, 0.3, 0.1], [0.0, 0.1, 0.4]]))
print("traced", traces, "time(s) for two matrices")
print("spectral radius with 30 iterations:", power_iteration_sr(0.5 * jnp.eye(3), 30, 0))
