"""Source: https://github.com/f0uriest/orthax/pull/65
Library: equinox
Reported: "Fixes to avoid recompilation with classical recurrence relations. Weight functions are now defined as class attributes rather than lambda functions created during init." Before the fix every classical recurrence relation passed a new `lambda` to `ClassicalRecurrenceRelation.__init__`, which stored it in `_weight`, declared `eqx.field(static=True)`: the lambda is pytree metadata compared by identity, so each `Legendre()` is a different treedef and every jitted orthax function (`orthval` here, jitted with plain `jax.jit` and the relation as a traced argument) traces and compiles again for each new, equal relation.
Transcribed: `_asarray`, `AbstractRecurrenceRelation`, `ClassicalRecurrenceRelation` and `Legendre` from orthax/recurrence.py, and `orthval` from orthax/_general.py, at fa7de132 (the parent of the fix, 5d2f77d); the module docstring, `TabulatedRecurrenceRelation` and the other classical families (which pass their lambdas the same way) are left out and the docstrings shortened. Added a trace counter in `orthval` and a loop that evaluates one series with a `Legendre()` built on each pass, as a caller writing `orthax.orthval(x, c, Legendre())` does.
Hard: the lambda is made inside `Legendre.__init__` and handed to the base class's `__init__`, which stores it in a field declared `eqx.field(static=True)`; `orthval` is plain `jax.jit`, so the field is aux data of the equinox module's flattening, and the instances are built again in a loop.
"""
import abc
import functools

import equinox as eqx
import jax
import jax.numpy as jnp
from jax import jit
from jax.scipy.special import gammaln

traces = 0


def _asarray(k, kmax=None):
    k = jnp.asarray(k)
    k = eqx.error_if(
        k,
        (k < 0).any(),
        "Negative indices not allowed for recurrence coefficients.",
    )
    if kmax is not None:
        k = eqx.error_if(
            k,
            (k > kmax).any(),
            "Requested recurrence coefficient outside of tabulated range.",
        )

    return k


class AbstractRecurrenceRelation(eqx.Module, abc.ABC):
    """Base class for three term recurrence relations."""

    _weight: callable = eqx.field(static=True)
    _domain: tuple[float, float]

    @property
    def weight(self):
        """callable: Weight function defining inner product."""
        return self._weight

    @property
    def domain(self):
        """tuple: Lower and upper bounds for inner product defining orthogonality."""
        return self._domain

    @abc.abstractmethod
    def a(self, k):
        """`a` coefficients of the monic three term recurrence relation."""
        pass

    @abc.abstractmethod
    def b(self, k):
        """`b` coefficients of the monic three term recurrence relation."""
        pass

    @abc.abstractmethod
    def g(self, k):
        """Weighted norm of the kth monic orthogonal polynomial."""
        pass

    @abc.abstractmethod
    def m(self, k):
        """Coefficient of x**k in the kth polynomial in the desired normalization."""
        pass


class ClassicalRecurrenceRelation(AbstractRecurrenceRelation, abc.ABC):
    """Base class for recurrence relations for "classical" orthogonal polynomials."""

    _scale: str = eqx.field(static=True)

    def __init__(self, weight, domain, scale="standard"):
        assert scale in {"standard", "monic", "normalized"}

        self._weight = weight
        self._domain = domain
        self._scale = scale

    @abc.abstractmethod
    def _std_norm(self, k):
        # norm of the kth polynomial in "standard" scaling (ie, AS, wikipedia, etc)
        pass

    @abc.abstractmethod
    def _std_scale(self, k):
        # coefficient of x**k in "standard" scaling (ie, AS, wikipedia, etc)
        pass

    def g(self, k):
        """Weighted norm of the kth monic orthogonal polynomial."""
        k = _asarray(k)
        return self._std_norm(k) / jnp.abs(self._std_scale(k))

    def m(self, k):
        """Coefficient of x**k in the kth polynomial in the desired normalization."""
        # scaling factor. polynomials are evaluated in monic form then multiplied
        # by this scale factor
        # ie, evaluate monic polynomials then multiply by m to get scaled version
        k = _asarray(k)
        if self._scale == "monic":
            out = jnp.ones_like(k)
        elif self._scale == "standard":
            out = self._std_scale(k)
        else:  # normalized
            out = self._std_scale(k) / self._std_norm(k)
        return out


class Legendre(ClassicalRecurrenceRelation):
    """Recurrence relation for Legendre Polynomials :math:`P_n(x)`"""

    def __init__(self, scale="standard"):
        super().__init__(weight=lambda x: jnp.ones_like(x), domain=(-1, 1), scale=scale)  # expect: static-fresh-callable

    def a(self, k):
        """`a` coefficients of the monic three term recurrence relation."""
        k = _asarray(k)
        return jnp.zeros_like(k)

    def b(self, k):
        """`b` coefficients of the monic three term recurrence relation."""
        k = _asarray(k)
        return jnp.where(k == 0, 2, 1 / (4 - 1 / jnp.where(k == 0, 1, k) ** 2))

    def _std_norm(self, k):
        return jnp.sqrt(2 / (2 * k + 1))

    def _std_scale(self, k):
        return jnp.exp(
            k * jnp.log(2) - gammaln(k + 1) + gammaln(k + 0.5) - gammaln(0.5)
        )


@functools.partial(jit, static_argnames=("tensor",))
def orthval(x, c, rec, tensor=True):
    """Evaluate an orthogonal series."""
    global traces
    traces += 1
    c = jnp.asarray(c)
    x = jnp.asarray(x)
    if tensor:
        c = c.reshape(c.shape + (1,) * x.ndim)

    c1 = c[-2] * jnp.zeros_like(x)
    c2 = c[-1] * jnp.zeros_like(x)

    def body(i, val):
        k = len(c) - i
        c1, c2 = val
        ck_plus1 = c1
        # on first step c2 is 0 so we don't care about rec.b(k+1), but we don't
        # want to try to get it to avoid out of bounds errors on tabulated coeffs.
        bk1 = rec.b(jnp.minimum(k + 1, len(c) - 1))
        ck = c[k] * rec.m(k) + (x - rec.a(k)) * c1 - bk1 * c2
        return ck, ck_plus1

    c1, c2 = jax.lax.fori_loop(1, len(c), body, (c1, c2))

    p0 = 1
    p1 = (x - rec.a(0)) * p0
    return p0 * c[0] * rec.m(0) + p1 * c1 - rec.b(1) * p0 * c2


x = jnp.linspace(-1.0, 1.0, 5)
c = jnp.array([1.0, 2.0, 3.0])
for _ in range(3):
    print(orthval(x, c, Legendre()))
print("traces:", traces)  # 3: one per Legendre(), though all three are equal
