"""Source: https://github.com/jax-ml/jax/issues/1251
Library: plain-jax
Reported: jit works on a function in a single script, but once the function is moved into a class (odes.simpleODE, decorated with @jit) and differentiated with jacfwd(ODE.simpleODE, argnums=(1,)), it fails: jit receives the odes instance as its first argument, which is not a valid JAX type.
Transcribed: the report's two files (the odes class, then the script that imports it with `from odes import *`) are joined into one file and the import of the first by the second is dropped; otherwise as reported. Observed (jax 0.10.2): TypeError "Error interpreting argument to <function odes.simpleODE ...> as an abstract array. The problematic value is of type <class '__main__.odes'> and was passed to the function at path self."
"""
import jax.numpy as np
import numpy as onp
from jax import jit, jacfwd, grad

from jax.numpy import sin, cos, exp

class odes:
    def __init__(self):
        print("odes file initialized")
    @jit  # expect: jit-method-self
    def simpleODE(self, t,q):
        return np.array([[q[1]], [cos(q[0])]])

ODE = odes()

Jac = jacfwd(ODE.simpleODE, argnums = (1,))

q = np.ones(2)

A = Jac(0,q)
print(A)
