"""Source: https://github.com/jax-ml/jax/issues/2515
Library: plain-jax
Reported: The reporter called `jit(grad(_Likelihood))(pars[0], pars[1], x)` inside a helper
`my_dev_likelihood` that runs on every loop iteration and found that jit did not speed it up -- every
call paid compilation again. `grad(...)` returns a new function object on each call, so the `jit`
wrapping it is a fresh function every time and its cache never hits.
Transcribed: Code as reported, minus the unused `matplotlib`/`iminuit` imports; `Likelihood` kept;
a trace counter inside `_Likelihood` and a final print were added to show the recompiles.
Hard: The checker must see that the jit target is `grad(_Likelihood)`, a transformed function made
afresh inside a function that is called in a loop, so `jit(...)` is rebuilt each call.
"""
from numpy import random
from jax.numpy import sqrt, pi, exp, log
from jax import jit, grad

traces = 0

sigma = 5.0
mu = 100.0
N = 100
tries = 2
s0 = sigma + random.randn(tries) * 0.5
s1 = mu + random.randn(tries) * 10.0
def _Likelihood(s, m, w):
    global traces
    traces += 1
    sum = 0
    for _x in w:
        term = -log(1 / (s * sqrt(2. * pi)) * exp(- ((_x - m) / s)**2 / 2.))
        sum += term
    return sum

def Likelihood(pars):
    return jit(_Likelihood)(pars[0], pars[1], x)

def my_dev_likelihood(pars):
    return jit(grad(_Likelihood))(pars[0], pars[1], x)  # expect: jit-fresh-function

for ss, mm in zip(s0, s1):
    x = random.randn(N) * sigma + mu
    my_pars1 = (ss, mm)
    my_pars2 = (ss+0.1, mm+0.1)
    my_dev_likelihood(my_pars1)
    my_dev_likelihood(my_pars2)

print("traces:", traces)  # 4: one trace+compile per call, never a cache hit
