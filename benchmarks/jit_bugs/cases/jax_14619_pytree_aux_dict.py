"""Source: https://github.com/jax-ml/jax/issues/14619
Library: plain-jax
Correct: the empty dict the flatten function returns as aux data is no static-value bug: it is made afresh by every flatten, so nothing changes it after jit compiled for it, and jit compares it without hashing it (measured: the jitted calls and hash() of the treedef work). What the report is about, a method jitted on a pytree class returns theta halved twice (1 instead of 2), because jit rebuilds the instance through tree_unflatten, which calls __init__ again, is outside the static rules; a checker that reported the dict would be wrong about harmless code.
Transcribed: as reported.
"""
import jax


class A:
    def __init__(self, theta=0.,):
        self.theta = theta // 2

    def _tree_flatten(self):
        children = (self.theta, )
        aux_data = {}
        return children, aux_data

    @classmethod
    def _tree_unflatten(cls, aux_data, children):
        return cls(*children, **aux_data)

    @jax.jit
    def solve_jit(self):
        return self.theta

    def solve_no_jit(self):
        return self.theta


jax.tree_util.register_pytree_node(A, A._tree_flatten, A._tree_unflatten)

theta = 4
print(theta, ': theta original')

solver = A(theta=theta)
print(solver.theta, ': theta after __init__')

a = solver.solve_no_jit()
b = jax.jit(solver.solve_no_jit)()
c = solver.solve_jit()

print(a, ': theta from no-jit', )
print(b, ': theta from outside_jit', )
print(c, ': theta from inside-jit', )
