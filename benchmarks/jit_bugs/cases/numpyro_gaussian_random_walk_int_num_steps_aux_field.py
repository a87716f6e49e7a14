"""Source: https://github.com/pyro-ppl/numpyro/blob/0b935d488056ae1775b4ab05cbe2812f51f21a4f/numpyro/distributions/continuous.py
Library: plain-jax
Correct: `GaussianRandomWalk` lists `num_steps` in `pytree_aux_fields`, so numpyro's generic `Distribution.tree_flatten` puts it into the pytree's aux data; `__init__` asserts `isinstance(num_steps, int) and num_steps > 0` and it sets the event shape, so it must be static and is hashable and compared by value: two walks of equal length and different `scale` share one compilation. (Sibling classes of numpyro's `DoublyTruncatedPowerLaw`, whose `pytree_aux_fields` held a constraint built from its parameters, numpyro PR 2272.)
Transcribed: numpyro's `Distribution` pytree machinery (`__init_subclass__` registering `tree_flatten`/`tree_unflatten`, `gather_pytree_data_fields`/`gather_pytree_aux_fields` over the MRO, `__init__` storing the shapes; validation, `DistributionMeta` and lazy properties left out); `GaussianRandomWalk`'s `__init__`, `sample` and `log_prob` (`Normal(0, s).log_prob` written out). The driver (a jitted log-density over walks of equal length and different scale, then of another length) is added.
"""
import inspect
import math

import jax
import jax.numpy as jnp
from jax import random
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
def _normal_log_prob(scale, value):
    return -((value / scale) ** 2) / 2 - jnp.log(scale) - math.log(math.sqrt(2 * math.pi))


class GaussianRandomWalk(Distribution):
    arg_constraints = {"scale": None}
    reparametrized_params = ["scale"]
    pytree_aux_fields = ("num_steps",)

    def __init__(self, scale=1.0, num_steps=1, *, validate_args=None):
        assert isinstance(num_steps, int) and num_steps > 0, (
            "`num_steps` argument should be a positive integer."
        )
        self.scale = scale
        self.num_steps = num_steps
        batch_shape, event_shape = jnp.shape(scale), (num_steps,)
        super(GaussianRandomWalk, self).__init__(
            batch_shape, event_shape, validate_args=validate_args
        )

    def sample(self, key, sample_shape=()):
        shape = sample_shape + self._batch_shape + self._event_shape
        walks = random.normal(key, shape=shape)
        return jnp.cumsum(walks, axis=-1) * jnp.expand_dims(self.scale, axis=-1)

    def log_prob(self, value):
        init_prob = _normal_log_prob(self.scale, value[..., 0])
        scale = jnp.expand_dims(self.scale, -1)
        step_probs = _normal_log_prob(scale, value[..., 1:] - value[..., :-1])
        return init_prob + jnp.sum(step_probs, axis=-1)


@jax.jit
def log_density(d, x):
    TRACES[0] += 1
    return jnp.sum(d.log_prob(x))


x = GaussianRandomWalk(1.0, num_steps=10).sample(random.PRNGKey(0))
for scale in [0.5, 1.0, 2.0]:
    log_density(GaussianRandomWalk(jnp.asarray(scale), num_steps=10), x)
print("traces for 3 scales:", TRACES[0])  # 1
log_density(GaussianRandomWalk(jnp.asarray(1.0), num_steps=12), jnp.zeros(12))
print("traces after another length:", TRACES[0])  # 2
