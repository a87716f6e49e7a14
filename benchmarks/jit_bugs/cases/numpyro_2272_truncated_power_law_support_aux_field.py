"""Source: https://github.com/pyro-ppl/numpyro/pull/2272
Library: plain-jax
Reported: "`DoublyTruncatedPowerLaw` and `LowerTruncatedPowerLaw` declare `_support` in `pytree_aux_fields`, but build it from parameter values in `__init__`. Aux fields go into the static treedef, so the truncation bounds get baked in and a jitted function taking the distribution as an argument retraces for every distinct bound -- 5 traces for 5 bounds, against 1 for `TwoSidedTruncatedDistribution` and `TwoSidedTruncatedGamma`, which declare `_support` as a data field." The PR moves `_support` to `pytree_data_fields` (regression test: `assert 5 == 1` on master).
Transcribed: numpyro's `Distribution` (at 0b935d48, before the PR) reduced to its pytree machinery: `__init_subclass__` registers `tree_flatten`/`tree_unflatten`, `gather_pytree_data_fields`/`gather_pytree_aux_fields` collect the names listed in `pytree_data_fields`/`pytree_aux_fields` along the MRO, the flatten puts the values of the aux names into the aux data, and `__init__` stores the shapes; `Constraint` (itself a pytree, `__eq__` = `bool(self.eq(other, static=True))`), `_Interval` and `util.array_equiv` as numpyro writes them (validation, `DistributionMeta`, lazy properties left out). `DoublyTruncatedPowerLaw.__init__` and its `log_prob` (the custom_jvp normaliser replaced by its closed form for alpha != -1); `promote_shapes` is `jnp.broadcast_arrays`. The driver jits a log-density over a distribution built for five upper bounds, as the PR's test does, then for two equal bounds given as jax arrays.
Hard: `_support` is static only because the generic flatten of the base class returns the attribute named in the subclass's `pytree_aux_fields` tuple as aux data; what it holds is a `Constraint`, itself a registered pytree whose children (`lower_bound`, `upper_bound`) are the distribution's parameters, built in `__init__` by the factory `constraints.interval(low, high)`; with float bounds it compares by value (a recompile per bound), with jax-array bounds `array_equiv(static=True)` returns False for different buffers (a recompile per instance).
"""
import inspect

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.tree_util import register_pytree_node

TRACES = [0]


def array_equiv(a, b, static=False):
    if a is b:
        return True
    if static:
        if isinstance(a, jax.Array) or isinstance(b, jax.Array):
            return False
        return bool(np.array_equiv(a, b))
    xp = jnp if isinstance(a, jax.Array) or isinstance(b, jax.Array) else np
    return xp.array_equiv(a, b)


class Constraint:
    is_discrete = False
    event_dim = 0

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        register_pytree_node(cls, cls.tree_flatten, cls.tree_unflatten)

    def tree_flatten(self):
        raise NotImplementedError

    def eq(self, other, static=False):
        return self is other

    def __eq__(self, other):
        return bool(self.eq(other, static=True))

    @classmethod
    def tree_unflatten(cls, aux_data, params):
        params_keys, aux_data = aux_data
        self = cls.__new__(cls)
        for k, v in zip(params_keys, params):
            setattr(self, k, v)

        for k, v in aux_data.items():
            setattr(self, k, v)
        return self


class _Interval(Constraint):
    def __init__(self, lower_bound, upper_bound):
        self.lower_bound = lower_bound
        self.upper_bound = upper_bound

    def __call__(self, x):
        xp = jnp if isinstance(x, jax.Array) else np
        return xp.greater_equal(x, self.lower_bound) & xp.less_equal(
            x, self.upper_bound
        )

    def eq(self, other, static=False):
        if not isinstance(other, _Interval):
            return False
        return array_equiv(
            self.lower_bound, other.lower_bound, static=static
        ) & array_equiv(self.upper_bound, other.upper_bound, static=static)

    def tree_flatten(self):
        return (self.lower_bound, self.upper_bound), (
            ("lower_bound", "upper_bound"),
            dict(),
        )


interval = _Interval


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


class DoublyTruncatedPowerLaw(Distribution):
    arg_constraints = {"alpha": None, "low": None, "high": None}
    reparametrized_params = ["alpha", "low", "high"]
    pytree_aux_fields = ("_support",)
    pytree_data_fields = ("alpha", "low", "high")

    def __init__(self, alpha, low, high, *, validate_args=None):
        self.alpha, self.low, self.high = jnp.broadcast_arrays(alpha, low, high)
        self._support = interval(low, high)  # expect: static-dynamic-child
        batch_shape = lax.broadcast_shapes(
            jnp.shape(alpha), jnp.shape(low), jnp.shape(high)
        )
        super(DoublyTruncatedPowerLaw, self).__init__(
            batch_shape=batch_shape, validate_args=validate_args
        )

    @property
    def support(self):
        return self._support

    def log_prob(self, value):
        one_more_alpha = 1.0 + self.alpha
        return jnp.log(
            jnp.power(value, self.alpha)
            * one_more_alpha
            / (jnp.power(self.high, one_more_alpha) - jnp.power(self.low, one_more_alpha))
        )


@jax.jit
def log_density(d, x):
    TRACES[0] += 1
    return jnp.sum(d.log_prob(x))


x = jnp.linspace(1.5, 2.0, 8)
for high in [3.0, 4.0, 5.0, 6.0, 7.0]:
    log_density(DoublyTruncatedPowerLaw(-2.0, 1.0, high), x)
print("traces for 5 bounds:", TRACES[0])  # 5 (1 with _support as a data field)

TRACES[0] = 0
for _ in range(2):
    log_density(DoublyTruncatedPowerLaw(-2.0, jnp.asarray(1.0), jnp.asarray(3.0)), x)
print("traces for 2 equal jax-array bounds:", TRACES[0])  # 2
