"""Source: https://github.com/kokabsc/gwkokab/commit/7aa7f2cd3b444e09476b99fe3147f739be4ff15e
Library: plain-jax
Reported: the commit ("chore: `pytree_data_fields` added in models") changes `BrokenPowerLawMassModel`, a numpyro `Distribution`, from `pytree_aux_fields = ("_logZ", "_support")` to `pytree_aux_fields = ("_support",)` with `"_logZ"` among the new `pytree_data_fields`. `_logZ` is a jax array that `__init__` computes by Monte Carlo (`_normalization`: 20 000 samples drawn with `jrd.PRNGKey(np.random.randint(0, 2**32 - 1))`), so it differs between any two instances, even of equal parameters; as an aux field it is pytree metadata, and jit compares it with `==` at every call: a 0-d `_logZ` compiles again for every new instance, a batched one (array parameters) fails. The commit message states no symptom; the run below shows both.
Transcribed: numpyro's `Distribution` pytree machinery (as in numpyro at 0b935d48: `__init_subclass__` registering `tree_flatten`/`tree_unflatten`, which put the attributes named in `pytree_aux_fields` into the aux data). `BrokenPowerLawMassModel` is cut to the primary-mass part: `__init__` (promote_shapes as `jnp.broadcast_arrays`, `_support` and the two `TruncatedPowerLaw` components, the `@partial(jit, static_argnums=(0,))` helper methods and validation left out), `_normalization` as written but sampling uniformly on [mmin, mmax] instead of gwkokab's inverse-transform sampler, and `log_prob` of a broken power law minus `_logZ`. The driver (a jitted log-likelihood called for freshly built models, as a sampler's loop would) is added.
Hard: `_logZ` is static only because the base class's generic flatten returns the attributes named in the subclass's `pytree_aux_fields` tuple as aux data; the array is assigned in a helper method `__init__` calls (`self._normalization()`), not in `__init__` itself, and is first set to `jnp.zeros_like(self.mmin)`: the mark is at that first assignment, where the attribute is made, both values being arrays.
"""
import inspect

import jax
import jax.numpy as jnp
import jax.random as jrd
import numpy as np
from jax import lax
from jax.tree_util import register_pytree_node

TRACES = [0]


class Distribution:
    _validate_args = False
    pytree_data_fields: tuple[str, ...] = ()
    pytree_aux_fields: tuple[str, ...] = ("_batch_shape", "_event_shape")

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        register_pytree_node(cls, cls.tree_flatten, cls.tree_unflatten)

    def __init__(self, batch_shape=(), event_shape=(), *, validate_args=None):
        self._batch_shape = batch_shape
        self._event_shape = event_shape
        if validate_args is not None:
            self._validate_args = validate_args

    @classmethod
    def gather_pytree_data_fields(cls):
        bases = inspect.getmro(cls)

        all_pytree_data_fields: set[str] = set()
        for base in bases:
            if issubclass(base, Distribution):
                all_pytree_data_fields.update(
                    base.__dict__.get(
                        "pytree_data_fields",
                        tuple(base.__dict__.get("arg_constraints", {})),
                    )
                )
        return tuple(all_pytree_data_fields)

    @classmethod
    def gather_pytree_aux_fields(cls):
        bases = inspect.getmro(cls)

        all_pytree_aux_fields: tuple[str, ...] = ("_validate_args",)
        for base in bases:
            if issubclass(base, Distribution):
                all_pytree_aux_fields += base.__dict__.get("pytree_aux_fields", ())
        # remove duplicates
        all_pytree_aux_fields = tuple(set(all_pytree_aux_fields))
        return all_pytree_aux_fields

    def tree_flatten(self):
        all_pytree_data_fields_names = type(self).gather_pytree_data_fields()
        all_pytree_data_fields_vals = tuple(
            self.__dict__.get(attr_name)
            for attr_name in all_pytree_data_fields_names
        )
        all_pytree_aux_fields_names = type(self).gather_pytree_aux_fields()
        all_pytree_aux_fields_vals = tuple(
            self.__dict__.get(attr_name)
            for attr_name in all_pytree_aux_fields_names
        )
        return (
            all_pytree_data_fields_vals,
            all_pytree_aux_fields_vals,
        )

    @classmethod
    def tree_unflatten(cls, aux_data, params):
        pytree_data_fields = cls.gather_pytree_data_fields()
        pytree_aux_fields = cls.gather_pytree_aux_fields()

        pytree_data_fields_dict = dict(zip(pytree_data_fields, params))
        pytree_aux_fields_dict = dict(zip(pytree_aux_fields, aux_data))

        d = cls.__new__(cls)

        for k, v in pytree_data_fields_dict.items():
            setattr(d, k, v)

        for k, v in pytree_aux_fields_dict.items():
            setattr(d, k, v)

        d._validate_args = False
        Distribution.__init__(
            d,
            pytree_aux_fields_dict["_batch_shape"],
            pytree_aux_fields_dict["_event_shape"],
        )
        d._validate_args = pytree_aux_fields_dict["_validate_args"]
        return d
class BrokenPowerLawMassModel(Distribution):
    arg_constraints = {
        "alpha1": None,
        "alpha2": None,
        "mmin": None,
        "mmax": None,
        "mbreak": None,
    }
    pytree_aux_fields = ("_logZ", "_support")

    def __init__(self, alpha1, alpha2, mmin, mmax, mbreak):
        (
            self.alpha1,
            self.alpha2,
            self.mmin,
            self.mmax,
            self.mbreak,
        ) = jnp.broadcast_arrays(alpha1, alpha2, mmin, mmax, mbreak)
        batch_shape = lax.broadcast_shapes(
            jnp.shape(alpha1),
            jnp.shape(alpha2),
            jnp.shape(mmin),
            jnp.shape(mmax),
            jnp.shape(mbreak),
        )
        self._support = None
        super(BrokenPowerLawMassModel, self).__init__(batch_shape=batch_shape)
        self._normalization()

    def _normalization(self):
        """Precomputes the normalization constant for the primary mass model
        using Monte Carlo integration.
        """
        num_samples = 20_000
        self._logZ = jnp.zeros_like(self.mmin)  # expect: static-dynamic-child
        samples = jrd.uniform(
            jrd.PRNGKey(np.random.randint(0, 2**32 - 1)),
            (num_samples,) + self._batch_shape,
            minval=self.mmin,
            maxval=self.mmax,
        )
        log_prob = self.log_prob(samples)
        prob = jnp.exp(log_prob)
        volume = jnp.subtract(self.mmax, self.mmin)
        self._logZ = jnp.add(jnp.log(jnp.mean(prob, axis=0)), jnp.log(volume))

    def log_prob(self, m1):
        log_val = jnp.where(
            m1 < self.mbreak,
            -self.alpha1 * jnp.log(m1),
            -self.alpha2 * jnp.log(m1) + (self.alpha2 - self.alpha1) * jnp.log(self.mbreak),
        )
        return jnp.subtract(log_val, self._logZ)


@jax.jit
def log_likelihood(model, m1):
    TRACES[0] += 1
    return jnp.sum(model.log_prob(m1))


m1 = jnp.linspace(10.0, 60.0, 16)
for _ in range(3):
    log_likelihood(BrokenPowerLawMassModel(1.5, 3.0, 5.0, 80.0, 35.0), m1)
print("traces for 3 equal models:", TRACES[0])  # 3: every _logZ is another array

try:
    for _ in range(2):
        model = BrokenPowerLawMassModel(
            jnp.array([1.5, 2.0]), 3.0, 5.0, 80.0, 35.0
        )
        log_likelihood(model, m1[:, None])
except ValueError as e:
    print("BUG:", str(e).splitlines()[0])
