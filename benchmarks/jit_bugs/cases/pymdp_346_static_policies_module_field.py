"""Source: https://github.com/infer-actively/pymdp/issues/346
Library: equinox
Reported: PR 345 made Agent.policies a static=True field holding a control.Policies, an equinox Module whose policy_arr field is a JAX array; re-jitting or reusing an eqx.filter_jit'd function with an Agent argument then has to hash and compare the static Policies, which arrays cannot do, and it crashes or recompiles (the fix, PR 416, reports that jax.jit(f, static_argnums=0) on a Policies failed with 'Non-hashable static arguments').
Transcribed: Policies from pymdp/control.py and the policies field of Agent from pymdp/agent.py (commit f2f6441159977e65e48759e1ababe03e39752b4b, where the field is still static); Agent is cut to that field and a constructor that builds the policy array, and the report's repro (build_agent, then an eqx.filter_jit'd function of the agent, cut off in the stored copy) is completed as the report describes it: the function called with two agents built alike.
Hard: the static field's declared type is Policies, an equinox Module; only Policies' own field, declared Array, shows that the static value holds an array.
"""
import itertools

import equinox as eqx
import jax.numpy as jnp
from equinox import Module, field
from jaxtyping import Array


class Policies(eqx.Module):
    """ 
    A class for storing an array of policies and its properties
    
    """
    policy_arr: Array
    horizon: int = eqx.field(static=True)
    num_policies: int = eqx.field(static=True)

    def __init__(self, policy_arr: Array) -> None:
        self.num_policies = policy_arr.shape[0]
        self.horizon = policy_arr.shape[1]
        self.policy_arr = policy_arr
    
    def __getitem__(self, idx: int) -> Array:
        return self.policy_arr[idx]
    
    def __len__(self) -> int:
        return self.num_policies


class Agent(Module):
    # matrix of all possible policies (each row is a policy of shape (num_controls[0], num_controls[1], ..., num_controls[num_control_factors-1])
    policies: Policies = field(static=True)  # expect: static-dynamic-child

    def __init__(self, A, B, policy_len=1, batch_size=1):
        num_controls = [b.shape[-1] for b in B]
        policies = list(itertools.product(*[list(range(i)) for i in num_controls * policy_len]))
        policy_arr = jnp.stack([jnp.array(p).reshape(policy_len, len(num_controls)) for p in policies])
        self.policies = Policies(policy_arr)


def build_agent():
    A = [jnp.array([[0.9, 0.1], [0.1, 0.9]], dtype=jnp.float32)]
    B = [jnp.stack([jnp.eye(2, dtype=jnp.float32), jnp.flipud(jnp.eye(2, dtype=jnp.float32))], axis=-1)]
    return Agent(A=A, B=B, policy_len=1, batch_size=1)


@eqx.filter_jit
def uses_agent(agent):
    return agent.policies.policy_arr.sum()


print(uses_agent(build_agent()))
print(uses_agent(build_agent()))
