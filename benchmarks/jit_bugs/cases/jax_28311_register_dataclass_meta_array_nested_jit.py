"""Source: https://github.com/jax-ml/jax/issues/28311
Library: jax-dataclass-registration
Reported: "Nested `jax.jit` hangs on second call when `jax.Array` stored in static pytree metadata": `Indexer.index` is a `register_dataclass` meta field, and `outer_fn` builds `Indexer(jnp.array(3))` ("oops, passed a JAX array instead of an int"). The first `test_fn` call traces and runs; the second `outer_fn()` builds an equal `Indexer` with a new array, and when the inner jit looks up `slice_it` jit compares the two treedefs, which compares the two arrays with `==`: the reporter's interpreter hung forever there. Under jax 0.10 the comparison raises instead ("Exception raised while checking equality of metadata fields of pytree ... arrays cannot be passed as metadata fields!").
Transcribed: the report's script, unchanged.
Hard: the meta field is declared `int`; the array reaches it only at the constructor call inside `outer_fn`, which the module calls twice.
Not marked: `inner_fn` is a `@jax.jit` on a `def` local to `outer_fn`, made anew by each of the two top-level calls and kept in `test_fn` before it is called; the report builds the second one on purpose to show the hang, and no loop runs it.
"""
import dataclasses
import jax
import jax.numpy as jnp

@dataclasses.dataclass
class Indexer:
    index: int

jax.tree_util.register_dataclass(Indexer, data_fields=[], meta_fields=["index"])

@jax.jit
def slice_it(x: jax.Array, indexer: Indexer):
    print("Tracing slice_it")
    jax.debug.print("Running slice_it")
    return x[:indexer.index]
        
def outer_fn():
    print("Running outer_fn")
    indexer = Indexer(jnp.array(3))  # <- oops, passed a JAX array instead of an int  # expect: static-dynamic-child

    @jax.jit
    def inner_fn(x: jax.Array):
        print("Tracing inner_fn")
        jax.debug.print("Running inner_fn")
        return slice_it(x, indexer)

    return inner_fn


test_fn = outer_fn()
print("First call result:", test_fn(jnp.arange(30)))
test_fn = outer_fn()
print("Second call result:", test_fn(jnp.arange(30)))
