"""Source: https://github.com/jax-ml/jax/issues/4645
Library: plain-jax
Reported: A method `take_action` defines `@jit def _take_action(params, obs)` inside its body and calls
it; the reporter saw it was much slower than a jitted function factored out of the method and guessed
"the nested function is being redundantly compiled each call" -- a new function object is made and
jitted on every call, so the jit cache never hits.
Transcribed: The reported nested-jit version of `take_action` is kept as written; added a minimal
class holding a stax network (`net_apply`, `params`), imports, a trace counter, and a loop of calls.
`stax.softmax` (removed) is replaced by `jax.nn.softmax`. The "factored" variant from the report is left out.
Hard: The checker must see that `@jit` decorates a function defined inside a method body, so each call of
`take_action` builds and jits a fresh closure (over `self`) and compiles again.
"""
import jax
import jax.numpy as jnp
from jax import jit
from jax.example_libraries import stax

traces = 0


class Agent:
    def __init__(self):
        init_fn, self.net_apply = stax.serial(stax.Dense(16), stax.Relu, stax.Dense(4))
        _, self.params = init_fn(jax.random.PRNGKey(0), (-1, 8))

    def take_action(self, obs):
        @jit  # expect: jit-fresh-function
        def _take_action(params, obs):
            global traces
            traces += 1
            logits = self.net_apply(params, obs)
            softm_logits = jax.nn.softmax(logits.flatten())
            sorted_logits = jnp.sort(softm_logits)
            conf = sorted_logits[-1] - sorted_logits[-2]
            action = jnp.argmax(logits)
            return logits,action,conf

        return _take_action(self.params, obs)


agent = Agent()
obs = jnp.ones((1, 8))
for _ in range(5):
    agent.take_action(obs)
print("traces:", traces)  # 5: one compile per call
