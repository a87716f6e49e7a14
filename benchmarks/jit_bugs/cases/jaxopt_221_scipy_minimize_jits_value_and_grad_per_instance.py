"""Source: https://github.com/google/jaxopt/issues/221
Library: plain-jax
Reported: "ScipyBoundedMinimize : recompilation of function to minimize at each instantiation?" The reporter runs a jitted objective `test` (which prints "compile....") through one `jaxopt.ScipyBoundedMinimize`, then builds a second, identical solver for the same objective and asks whether building it recompiles the function (the stored thread shows the first "compile...." and is cut off after the first result). It does: each solver's `__post_init__` stores `jax.jit(jax.value_and_grad(self.fun))`, a new jitted function per instance, so every solver built for the same objective traces and compiles its value-and-gradient again.
Transcribed: the report's snippet as posted (discussion 220), unchanged apart from `jaxopt.` names; jaxopt is not installed, so `ScipyBoundedMinimize` stands in for jaxopt/_src/scipy_wrappers.py at 8531330 (May 2022, the report's date): the dataclass fields, `__post_init__` and the `_run`/`run` bridge to `scipy.optimize.minimize`, cut to one array parameter (no pytree flattening) and without the implicit-differentiation decorator (`custom_root`) and its `_grad_fun`, which `run` does not call. Today's JAX caches the trace of `test` inside the second jitted value-and-gradient, so the report's print shows once; a compile counter (a `jax.monitoring` listener) was added to show the second compilation.
Hard: the jit is applied in `__post_init__` to what `jax.value_and_grad` returns and kept on the instance, so each instance is compiled once; the recompilation comes from the module building a second instance with equal arguments.
"""
import dataclasses
from dataclasses import dataclass
from typing import Any, Callable, Dict, NamedTuple, Optional

import jax
import jax.numpy as jnp
from jax import vmap, jit
import numpy as np
import numpy as onp
import scipy as osp
import scipy.optimize
jax.config.update("jax_enable_x64", True)

compiles = 0


def _count_compiles(event, duration_secs, **kwargs):
    global compiles
    if event == "/jax/core/compile/backend_compile_duration" and kwargs.get("fun_name") == "jit(test)":
        compiles += 1


jax.monitoring.register_event_duration_secs_listener(_count_compiles)


class ScipyMinimizeInfo(NamedTuple):
    fun_val: Any
    success: bool
    status: int
    iter_num: int


class OptStep(NamedTuple):
    params: Any
    state: Any


@dataclass(eq=False)
class ScipyBoundedMinimize:  # stand-in for jaxopt.ScipyBoundedMinimize (jaxopt 0.3.1)
    method: Optional[str] = None
    dtype: Optional[Any] = onp.float64
    jit: bool = True
    fun: Callable = None
    tol: Optional[float] = None
    options: Optional[Dict[str, Any]] = None

    def _run(self, init_params, bounds, *args, **kwargs):
        def scipy_fun(x_onp):
            x_jnp = jnp.asarray(x_onp).reshape(jnp.shape(init_params))
            value, grads = self._value_and_grad_fun(x_jnp, *args, **kwargs)
            return onp.asarray(value, self.dtype), onp.asarray(grads, self.dtype).reshape(-1)

        if bounds is not None:
            bounds = osp.optimize.Bounds(lb=onp.asarray(bounds[0], self.dtype).reshape(-1),
                                         ub=onp.asarray(bounds[1], self.dtype).reshape(-1))

        res = osp.optimize.minimize(scipy_fun, onp.asarray(init_params, self.dtype).reshape(-1),
                                    jac=True,
                                    bounds=bounds,
                                    method=self.method,
                                    options=self.options)

        params = jnp.asarray(res.x).reshape(jnp.shape(init_params))
        info = ScipyMinimizeInfo(fun_val=jnp.asarray(res.fun),
                                 success=res.success,
                                 status=res.status,
                                 iter_num=res.nit)
        return OptStep(params, info)

    def run(self, init_params, bounds, *args, **kwargs):
        return self._run(init_params, bounds, *args, **kwargs)

    def __post_init__(self):
        # Pre-compile useful functions.
        self._value_and_grad_fun = jax.value_and_grad(self.fun)
        if self.jit:
            self._value_and_grad_fun = jax.jit(self._value_and_grad_fun)  # expect: jit-fresh-function


@jit
def test(x):
    print("compile....")
    return -(x+2.)**2

tol = 1e-3
method = 'L-BFGS-B' # 'SLSQP'
options = {'disp':False,'ftol':tol, 'gtol':tol, 'maxiter':600}
jscMin=ScipyBoundedMinimize(fun=test,
                                           method=method, 
                                           tol=tol,
                                           options=options)

res = jscMin.run(jnp.array(10.),bounds=(-100,100))
print(">>> res1", res)
compiles_first = compiles

jscMin=ScipyBoundedMinimize(fun=test,
                                           method=method, 
                                           tol=tol,
                                           options=options)



res = jscMin.run(jnp.array(5.),bounds=(-100,100))
print(">>> res2", res)



res = jscMin.run(jnp.array(-5.),bounds=(-100,100))
print(">>> res3", res)
print("compiles for the first solver:", compiles_first, "after the second, equal one:", compiles)
