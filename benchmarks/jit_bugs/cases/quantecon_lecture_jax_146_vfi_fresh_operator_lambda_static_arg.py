"""Source: https://github.com/QuantEcon/lecture-jax/pull/146
Library: plain-jax
Reported: the pull request made `successive_approx_jax` take the operator as its first argument, jitted with `static_argnums=(0,)`, and `value_iteration` pass `_T = lambda v: T(v, constants, sizes, arrays)`; the reviewer asked "Can you tell me why this works for the new version: `static_argnums=(0,)`. This means that the callable is a 'compile-time constant'? I don't get it..." and it was merged. The lambda is made anew on every `value_iteration` call and is hashed by identity, so each call (the lecture's first run and its timed `run_algorithm(value_iteration, ...)`) traces and compiles the solver loop again, and the timing plotted against HPI and OPI includes a compilation.
Transcribed: `create_consumption_model`, `B`, `T`, `get_greedy` and their jitting from lectures/opt_savings.md, `successive_approx_jax` from lectures/_static/lecture_specific/successive_approx.py and `value_iteration` from lectures/_static/lecture_specific/vfi.py at a3bc43b (the merge); `qe.tauchen` is replaced by a uniform Markov chain stand-in (quantecon is not installed), the grids are smaller, the other operators, solvers and plots are left out. Added a trace counter in `successive_approx_jax` and the lecture's two `value_iteration` calls, the second through `run_algorithm`.
Hard: the lambda is made inside `value_iteration` and handed straight to a module-level function jitted with `static_argnums=(0,)`; `value_iteration` is called twice from the module's top-level code, once through `run_algorithm` (a function given it as an argument).
"""
import time

import jax
import jax.numpy as jnp

traces = 0


def create_consumption_model(R=1.01,                    # Gross interest rate
                             β=0.98,                    # Discount factor
                             γ=2,                       # CRRA parameter
                             w_min=0.01,                # Min wealth
                             w_max=5.0,                 # Max wealth
                             w_size=30,                 # Grid side
                             ρ=0.9, ν=0.1, y_size=10):  # Income parameters
    """
    A function that takes in parameters and returns parameters and grids
    for the optimal savings problem.
    """
    w_grid = jnp.linspace(w_min, w_max, w_size)
    y_grid, Q = jnp.exp(jnp.linspace(-ν, ν, y_size)), jnp.full((y_size, y_size), 1.0 / y_size)
    β, R, γ = jax.device_put([β, R, γ])
    w_grid, y_grid, Q = tuple(map(jax.device_put, [w_grid, y_grid, Q]))
    sizes = w_size, y_size
    return (β, R, γ), sizes, (w_grid, y_grid, Q)


def B(v, constants, sizes, arrays):
    """
    A vectorized version of the right-hand side of the Bellman equation
    (before maximization), which is a 3D array representing
        B(w, y, w′) = u(Rw + y - w′) + β Σ_y′ v(w′, y′) Q(y, y′)
    for all (w, y, w′).
    """
    # Unpack
    β, R, γ = constants
    w_size, y_size = sizes
    w_grid, y_grid, Q = arrays
    # Compute current rewards r(w, y, wp) as array r[i, j, ip]
    w  = jnp.reshape(w_grid, (w_size, 1, 1))    # w[i]   ->  w[i, j, ip]
    y  = jnp.reshape(y_grid, (1, y_size, 1))    # z[j]   ->  z[i, j, ip]
    wp = jnp.reshape(w_grid, (1, 1, w_size))    # wp[ip] -> wp[i, j, ip]
    c = R * w + y - wp
    # Calculate continuation rewards at all combinations of (w, y, wp)
    v = jnp.reshape(v, (1, 1, w_size, y_size))  # v[ip, jp] -> v[i, j, ip, jp]
    Q = jnp.reshape(Q, (1, y_size, 1, y_size))  # Q[j, jp]  -> Q[i, j, ip, jp]
    EV = jnp.sum(v * Q, axis=3)                 # sum over last index jp
    # Compute the right-hand side of the Bellman equation
    return jnp.where(c > 0, c**(1-γ)/(1-γ) + β * EV, -jnp.inf)


def T(v, constants, sizes, arrays):
    "The Bellman operator."
    return jnp.max(B(v, constants, sizes, arrays), axis=2)


def get_greedy(v, constants, sizes, arrays):
    "Computes a v-greedy policy, returned as a set of indices."
    return jnp.argmax(B(v, constants, sizes, arrays), axis=2)


B = jax.jit(B, static_argnums=(2,))
T = jax.jit(T, static_argnums=(2,))
get_greedy = jax.jit(get_greedy, static_argnums=(2,))


def successive_approx_jax(T,                     # Operator (callable)
                          x_0,                   # Initial condition
                          tolerance=1e-6,        # Error tolerance
                          max_iter=10_000):      # Max iteration bound
    global traces
    traces += 1
    def body_fun(k_x_err):
        k, x, error = k_x_err
        x_new = T(x)
        error = jnp.max(jnp.abs(x_new - x))
        return k + 1, x_new, error

    def cond_fun(k_x_err):
        k, x, error = k_x_err
        return jnp.logical_and(error > tolerance, k < max_iter)

    k, x, error = jax.lax.while_loop(cond_fun, body_fun, (1, x_0, tolerance + 1))
    return x

successive_approx_jax = jax.jit(successive_approx_jax, static_argnums=(0,))


def value_iteration(model, tol=1e-5):
    constants, sizes, arrays = model
    vz = jnp.zeros(sizes)
    _T = lambda v: T(v, constants, sizes, arrays)
    v_star = successive_approx_jax(_T, vz, tolerance=tol)  # expect: static-fresh-callable
    return get_greedy(v_star, constants, sizes, arrays)


def run_algorithm(algorithm, model, **kwargs):
    start_time = time.time()
    result = algorithm(model, **kwargs)
    end_time = time.time()
    elapsed_time = end_time - start_time
    print(f"{algorithm.__name__} completed in {elapsed_time:.2f} seconds.")
    return result, elapsed_time


model = create_consumption_model()
out = value_iteration(model)
σ_vfi, vfi_time = run_algorithm(value_iteration, model, tol=1e-5)
print("traces:", traces)  # 2: the timed run compiles the solver loop again
