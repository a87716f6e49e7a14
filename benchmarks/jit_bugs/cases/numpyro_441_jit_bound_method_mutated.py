"""Source: https://github.com/pyro-ppl/numpyro/issues/441
Library: plain-jax
Correct: in today's jax. The report (2019): reusing an MCMC object on new data gave results for the old data; the maintainer traced it to how jit treated a bound method: jit(f.sample) was keyed on the bound method, so after f.a was changed from 1 to 2 the jitted f.sample still returned 1. Each `jit(f.sample)` here is made and called at once: jax keys its traces on the bound method weakly, and the bound method made for the first call is gone with its jitted function before the second is made, so the second traces anew and prints 2 (run it). The hazard stays where a jitted bound method is kept (stored, or an equal bound method held elsewhere) while its object changes.
Transcribed: the maintainer's reduction from the thread (a comment by fehiepsi), with print calls added around the two jitted calls; nothing else added.
"""
from jax import jit

class F:
    a = 1

    def sample(self):
        return self.a

f = F()
print(jit(f.sample)())

f.a = 2
print(jit(f.sample)())
