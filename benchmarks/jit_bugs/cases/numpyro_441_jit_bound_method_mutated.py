"""Source: https://github.com/pyro-ppl/numpyro/issues/441
Library: plain-jax
Reported: reusing an MCMC object on new data gave results for the old data; the maintainer traced it to how jit treats a bound method: jit(f.sample) is keyed on the bound method, so after f.a is changed from 1 to 2 the jitted f.sample still returns 1 instead of 2 (each new jit(f.sample) is also traced again).
Transcribed: the maintainer's reduction from the thread (a comment by fehiepsi), with print calls added around the two jitted calls; nothing else added.
Hard: the object's attribute is assigned at module level after jit(f.sample) was built, and F is a plain class that hashes by identity; a class attribute read through self is the value compiled in.
"""
from jax import jit

class F:
    a = 1

    def sample(self):
        return self.a

f = F()
print(jit(f.sample)())  # expect: jit-bound-method

f.a = 2
print(jit(f.sample)())  # expect: jit-bound-method
