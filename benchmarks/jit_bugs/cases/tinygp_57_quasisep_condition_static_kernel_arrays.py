"""Source: https://github.com/dfm/tinygp/pull/57
Library: plain-jax
Reported: "Fixed exception when conditioning with quasiseparable solver, since quasisep kernels are not hashable." (news/57.bugfix). `QuasisepSolver.condition` was jitted with `static_argnums=(1,)`, making its `kernel` argument static; quasiseparable kernels are frozen tinygp dataclasses whose fields are arrays (`Matern32.sigma` defaults to `jnp.ones(())`), so hashing the kernel fails and `GaussianProcess.condition` raised on its first call. The fix (commit 998b3e4) removed the decorator.
Transcribed: `dataclass` and `field` from src/tinygp/helpers.py, `Kernel.__call__` from src/tinygp/kernels/base.py, the fields of `quasisep.Matern32`, `QuasisepSolver.condition` (with its decorator) from src/tinygp/solvers/quasisep/solver.py and the call in `GaussianProcess.condition` from src/tinygp/gp.py, at 998b3e4^ (the parent of the fix). The quasiseparable matrices are replaced by a dense Cholesky factor: `QuasisepSolver.init` factors the dense covariance, `condition` keeps only its dense fallback branch (the QSM branch for `X_test is None` is cut), `Matern32.evaluate` is the stationary Matern-3/2 formula instead of the state-space `Pinf`/`h`/`A`, and `GaussianProcess` is cut to its constructor's kernel, inputs, diagonal and solver and to the solver call of `condition`. The data and the call were added.
Hard: `kernel` is declared `Kernel`, an abstract base class with no fields; the arrays are fields of the subclass `Matern32` (one a `default_factory` returning `jnp.ones(())`), whose frozen dataclass `__hash__` hashes them; the call passes `self.kernel`, set in `__init__`.
Not marked: the jitted `condition` leaves `self` (argument 0) traced; that is right, because tinygp's `dataclass` helper registers every class it decorates as a pytree (`jax.tree_util.register_pytree_node` inside the decorator function), so a `QuasisepSolver` is traced like any pytree.
"""
from __future__ import annotations

import dataclasses
from abc import ABCMeta, abstractmethod
from functools import partial
from typing import Any, Callable, Optional, Tuple, TypeVar, Union

import jax
import jax.numpy as jnp
import numpy as np

JAXArray = Union[np.ndarray, jnp.ndarray]
_T = TypeVar("_T")


def __dataclass_transform__(
    *,
    eq_default: bool = True,
    order_default: bool = False,
    kw_only_default: bool = False,
    field_descriptors: Tuple[Union[type, Callable[..., Any]], ...] = (()),
) -> Callable[[_T], _T]:
    # If used within a stub file, the following implementation can be
    # replaced with "...".
    return lambda a: a


@__dataclass_transform__()
def dataclass(clz: _T) -> _T:
    # workaround for pytype not recognizing __dataclass_fields__
    data_clz: Any = dataclasses.dataclass(frozen=True)(clz)
    meta_fields = []
    data_fields = []
    for name, field_info in data_clz.__dataclass_fields__.items():
        is_pytree_node = field_info.metadata.get("pytree_node", True)
        if is_pytree_node:
            data_fields.append(name)
        else:
            meta_fields.append(name)

    def replace(self, **updates):
        return dataclasses.replace(self, **updates)

    data_clz.replace = replace

    def iterate_clz(x):
        meta = tuple(getattr(x, name) for name in meta_fields)
        data = tuple(getattr(x, name) for name in data_fields)
        return data, meta

    def clz_from_iterable(meta, data):
        meta_args = tuple(zip(meta_fields, meta))
        data_args = tuple(zip(data_fields, data))
        kwargs = dict(meta_args + data_args)
        return data_clz(**kwargs)

    jax.tree_util.register_pytree_node(
        data_clz, iterate_clz, clz_from_iterable
    )

    # Hack to make this class act as a tuple when unpacked
    data_clz.iter_elems = lambda self: iterate_clz(self)[0].__iter__()

    return data_clz


def field(pytree_node: bool = True, **kwargs: Any) -> Any:
    return dataclasses.field(metadata={"pytree_node": pytree_node}, **kwargs)


class Kernel(metaclass=ABCMeta):
    @abstractmethod
    def evaluate(self, X1: JAXArray, X2: JAXArray) -> JAXArray:
        raise NotImplementedError

    def __call__(
        self, X1: JAXArray, X2: Optional[JAXArray] = None
    ) -> JAXArray:
        if X2 is None:
            return jax.vmap(self.evaluate, in_axes=(0, 0))(X1, X1)
        k = jax.vmap(
            jax.vmap(self.evaluate, in_axes=(None, 0)), in_axes=(0, None)
        )(X1, X2)
        return k


class Quasisep(Kernel, metaclass=ABCMeta):
    pass


@dataclass
class Matern32(Quasisep):
    scale: JAXArray
    sigma: JAXArray = field(default_factory=lambda: jnp.ones(()))

    def evaluate(self, X1: JAXArray, X2: JAXArray) -> JAXArray:
        f = np.sqrt(3) * jnp.abs(X1 - X2) / self.scale
        return jnp.square(self.sigma) * (1 + f) * jnp.exp(-f)


@dataclass
class QuasisepSolver:
    X: JAXArray
    factor: JAXArray

    @classmethod
    def init(cls, kernel: Kernel, X: JAXArray, diag: JAXArray) -> "QuasisepSolver":
        matrix = kernel(X, X) + jnp.diag(jnp.broadcast_to(diag, X.shape))
        return cls(X=X, factor=jnp.linalg.cholesky(matrix))

    def solve_triangular(self, y: JAXArray) -> JAXArray:
        return jax.scipy.linalg.solve_triangular(self.factor, y, lower=True)

    @partial(jax.jit, static_argnums=(1,))
    def condition(
        self,
        kernel: Kernel,
        X_test: Optional[JAXArray],
        diag: Optional[JAXArray],
    ) -> Any:
        # Otherwise fall back on the slow method for now :(
        if X_test is None:
            Kss = Ks = kernel(self.X, self.X)
        else:
            Kss = kernel(X_test, X_test)
            Ks = kernel(self.X, X_test)

        A = self.solve_triangular(Ks)
        return Kss - A.transpose() @ A


class GaussianProcess:
    def __init__(self, kernel: Kernel, X: JAXArray, *, diag: Optional[JAXArray] = None):
        self.kernel = kernel
        self.X = X
        self.diag = jnp.zeros(()) if diag is None else diag
        self.solver = QuasisepSolver.init(kernel, X, self.diag)

    def condition(self, y: JAXArray, X_test: Optional[JAXArray] = None, *, diag: Optional[JAXArray] = None, kernel: Optional[Kernel] = None):
        if kernel is None:
            kernel = self.kernel

        diag = jnp.zeros(()) if diag is None else diag
        covariance_value = self.solver.condition(kernel, X_test, diag)  # expect: static-dynamic-child
        return covariance_value


X = jnp.sort(jax.random.uniform(jax.random.PRNGKey(0), (20,), maxval=10.0))
y = jnp.sin(X)
gp = GaussianProcess(Matern32(scale=1.5), X, diag=0.1)
print(gp.condition(y).shape)
