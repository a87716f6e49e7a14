"""Source: https://github.com/jax-ml/jax/issues/14183
Library: plain-jax
Correct: some_function is jitted once at module level, and Partial(some_function, parameter=1) only binds an argument of it: no function is jitted afresh and nothing is static. The second compile the reporter measured comes from calling the same jitted function with parameter passed by keyword instead of by position (a different call signature), after which the Partial hits the cache; a checker must not report the Partial as a fresh jitted function or a static-value hazard.
Transcribed: `import jax` was added and test_compilation() is called at the end (the report profiles it with %lprun).
"""
import jax
from jax.tree_util import Partial

@jax.jit
def some_function(x,parameter):
    return x+parameter

def test_compilation():
    some_function(1,1) #compiles
    patial_function = Partial(some_function, parameter=1)
    patial_function(1) #compiles again
    patial_function(1)
    return

test_compilation()
