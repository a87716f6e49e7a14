"""Source: https://github.com/jax-ml/jax/issues/33487
Library: plain-jax
Correct: the reporter suspected that jit with a functools.partial used inside the jitted function and a static float offset gives results different from the unjitted function; the static value is a Python float (hashed and compared by value), and the partial is a closure variable read at trace time, not a static argument; the jitted and unjitted results agree (measured, jax 0.10.2), and the issue was closed. A checker must not flag the float static argument or the partial.
Transcribed: as reported, with a call of the test function added; the stored copy is cut off inside the assert message, which is completed.
"""
import functools

import jax
import jax.numpy as jnp


def test_jit_partial_static():
    """Test that demonstrates a bug in JIT compilation with functools.partial and static_argnums."""
    
    def compute(x, multiplier, offset):
        """Function that uses both static and dynamic arguments."""
        return x * multiplier + offset
    
    # Create partial function with static argument
    partial_fn = functools.partial(compute, multiplier=2.0)
    
    def wrapped_fn(x, offset):
        # Using partial function inside JIT
        return partial_fn(x, offset=offset)
    
    # JIT with static_argnums for the offset
    jit_fn = jax.jit(wrapped_fn, static_argnums=(1,))
    
    # Test data
    x = jnp.array([1.0, 2.0, 3.0])
    offset = 10.0
   # Non-JIT result
    non_jit_result = wrapped_fn(x, offset)
    
    # JIT result
    jit_result = jit_fn(x, offset)
    
    print("Non-JIT result:", non_jit_result)
    print("JIT result:", jit_result)
    
    assert jnp.allclose(jit_result, non_jit_result), (
        f"Mismatch between JIT and non-JIT results: {jit_result} vs {non_jit_result}"
    )


test_jit_partial_static()
