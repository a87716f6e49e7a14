"""Source: https://github.com/PlasmaControl/DESC/pull/1662
Library: plain-jax
Reported: in review of the PR that marks `_R_basis`, `_Z_basis`, `_L_basis` of an Equilibrium as `_static_attrs`, the author objected that a basis object hashes by identity (`hash(FourierZernikeBasis(4,4,4))` differs between two equal bases), so two equilibria with the exact same resolution are treated as different objects and every one triggers recompilation (also defeating the persistent compilation cache).
Transcribed: DESC's Equilibrium and FourierZernikeBasis are reduced to minimal stand-ins (a basis that stores its resolution and defines no __hash__/__eq__; an equilibrium that builds its basis in __init__ and lists it in `_static_attrs`); the flatten function is DESC's generic one (names in `_static_attrs` go to the aux data); two equilibria of equal resolution are built in a loop and given to one jitted function, with a trace counter.
Hard: the basis is static only because the generic flatten puts every name in `_static_attrs` into the aux data; the class keeps object.__hash__/__eq__, and the evidence is an equal instance built again inside a loop.
"""
import jax
import jax.numpy as jnp

TRACES = [0]


class FourierZernikeBasis:
    def __init__(self, L, M, N):
        self.L = L
        self.M = M
        self.N = N


class Equilibrium:
    _static_attrs = ["_R_basis"]

    def __init__(self, L, M, N):
        self._R_basis = FourierZernikeBasis(L, M, N)  # expect: static-identity-hash
        self.R_lmn = jnp.ones(L + M + N)


def _generic_tree_flatten(obj):
    children = {}
    aux_data = []
    static_attrs = getattr(obj, "_static_attrs", [])
    for key, val in obj.__dict__.items():
        if key in static_attrs:
            aux_data += [(key, val)]
        else:
            children[key] = val
    return ((children,), aux_data)


def _generic_tree_unflatten(aux_data, children):
    obj = Equilibrium.__new__(Equilibrium)
    obj.__dict__.update(children[0])
    for kv in aux_data:
        setattr(obj, kv[0], kv[1])
    return obj


jax.tree_util.register_pytree_node(Equilibrium, _generic_tree_flatten, _generic_tree_unflatten)


@jax.jit
def compute(eq):
    TRACES[0] += 1
    return jnp.sum(eq.R_lmn) * eq._R_basis.L


basis1 = FourierZernikeBasis(4, 4, 4)
basis2 = FourierZernikeBasis(4, 4, 4)
print(hash(basis1))
print(hash(basis2))

for _ in range(2):
    eq = Equilibrium(4, 4, 4)
    compute(eq)
print("traces:", TRACES[0])  # 2: equal equilibria compile again
