"""Source: https://github.com/google/flax/issues/2410
Library: plain-jax
Reported: a PRNG key (a jax array) passed in a static position fails with 'Non-hashable static arguments are not supported ... unhashable type: DeviceArray'.
Transcribed: the maintainer's minimal example from the thread (the reporter's own code goes through flax.jax_utils.pad_shard_unpad and is not shown whole).
"""
import jax

jax.jit(lambda x: x + 1, static_argnums=(0,))(jax.numpy.array([0, 1]))  # same error  # expect: static-dynamic-child

jax.jit(lambda x: x + 1)(jax.numpy.array([0, 1]))  # works
