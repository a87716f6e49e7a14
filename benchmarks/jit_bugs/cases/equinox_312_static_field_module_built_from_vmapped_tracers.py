"""Source: https://github.com/patrick-kidger/equinox/issues/312
Library: equinox
Reported: a field marked static (`eqx.static_field()`) holds StaticModule, itself an equinox Module of three floats; an ensemble of Mods is built under filter_vmap from a batched array of static values, so the static field receives a StaticModule whose fields are vmap tracers. The tracers leak out through the treedef, and calling a second filter_vmap'd function on the ensemble raises UnexpectedTracerError.
Transcribed: the report's MWE, with `import jax`, `import jax.numpy as jnp` and `import equinox as eqx` added. Observed (equinox 0.13.8, jax 0.10.2): equinox warns that static_field is deprecated and, at the Mod(...) call in make_ensample, 'A JAX array is being set as static!'; print(ensample) shows Mod(arr=f32[2,3], static=StaticModule(a=f32[], b=f32[], c=f32[])) -- the static field holds leaked BatchTracers -- and evaluate_ensample raises jax.errors.UnexpectedTracerError.
Hard: the field's declared type is StaticModule, whose fields are declared float, which is right as declared; only make_ensample, which builds a StaticModule from a vmapped array's elements (tracers) and passes it to Mod, shows that the static field receives tracers: the mark is at that call, where equinox warns too.
"""
import jax
import jax.numpy as jnp
import equinox as eqx


class StaticModule(eqx.Module):
    """Stores values that we want to treat as static always"""
    a: float
    b: float
    c: float

class Mod(eqx.Module):
    """
    Encapsulates a whole state where some parts are dynamic and others are static
    """
    arr: jax.Array
    static: StaticModule = eqx.static_field()

arrs = jnp.asarray([
    [1.0, 2.0, 3.0],
    [4.0, 5.0, 6.0],
])
statics = jnp.asarray([
    [1.0, 2.0, 3.0],
    [-1.0, -2.0, -3.0],
])

@eqx.filter_vmap(in_axes=(0, 0))
def make_ensample(arr, static):
    stat_mod = StaticModule(a=static[0], b=static[1], c=static[2])
    return Mod(arr=arr, static=stat_mod)  # expect: static-dynamic-child

ensample = make_ensample(arrs, statics)
print(ensample)
# >> Mod(arr=f32[2,3], static=StaticModule(a=f32[], b=f32[], c=f32[]))

@eqx.filter_vmap(in_axes=(0, None))
def evaluate_ensample(mod: Mod, c: int):
    adds = jnp.asarray([mod.static.a, mod.static.b, mod.static.c])
    new_arr = mod.arr + adds + c
    
    where = lambda _: _.arr    
    new_mod = eqx.tree_at(where, mod, new_arr)
    
    return new_mod

outputs = evaluate_ensample(ensample, 1)
