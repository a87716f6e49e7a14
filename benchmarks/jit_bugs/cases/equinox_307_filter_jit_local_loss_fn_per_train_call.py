"""Source: https://github.com/patrick-kidger/equinox/issues/307
Library: plain-jax
Reported: training a policy-gradient agent, the reporter tried `eqx.filter_jit` in different places: on `train` "this makes the code go 🚀🚀🚀", but on `loss_fn`, a function defined inside `train`, the run was "significantly slower and then crashed" with `LLVM ERROR: pthread_create failed: Resource temporarily unavailable`. `train` runs once per batch of every episode and defines `loss_fn` anew each time; `filter_jit` keys its compiled code on the function object, so every call of `train` traces and compiles `loss_fn` again, and the compiles pile up until the process runs out of threads.
Transcribed: the report's `train` and `loss_fn`, with `eqx.filter_jit` on `loss_fn` uncommented (the placement the report is about; the one on `train` stays commented out, as in the report). The stored copy of the report is cut off after `loss_fn`, so the rest of `train` is completed as the same author's Haiku version of this script does it (value-and-grad of `loss_fn`, an optax update, return the new parameters, state and loss), with the equinox `filter_value_and_grad`/`apply_updates`. Added: `get_future_rewards` from that Haiku version, a stand-in for `rlax.policy_gradient_loss` (rlax is not installed; same formula), an `eqx.nn.MLP` policy, random episodes in place of the gym environment, and a trace counter.
Hard: `loss_fn` is a local `def` decorated with `@eqx.filter_jit` inside `train`, which the module's episode loop calls again and again; `train` itself is not jitted.
"""
import equinox as eqx
import jax
import jax.numpy as jnp
import optax
from jaxtyping import Array, PyTree
from optax import GradientTransformation

traces = 0


class rlax:  # stand-in for rlax.policy_gradient_loss (not installed)
    @staticmethod
    def policy_gradient_loss(logits_t, a_t, adv_t, w_t):
        log_pi_a_t = jnp.take_along_axis(jax.nn.log_softmax(logits_t), a_t[:, None], axis=-1)[:, 0]
        adv_t = jax.lax.stop_gradient(adv_t)
        return jnp.mean(-log_pi_a_t * adv_t * w_t)


def get_future_rewards(rewards: jnp.ndarray, gamma=0.99) -> jnp.ndarray:
    returns = jnp.zeros_like(rewards)
    future_returns = 0

    for t in range(len(rewards) - 1, -1, -1):
        future_returns = rewards[t] + gamma * future_returns
        returns = returns.at[t].set(future_returns)

    return returns


# eqx.filter_jit <<< This makes the code go 🚀🚀🚀
def train(
    t_optim: GradientTransformation,
    t_opt_state: PyTree,
    t_params: PyTree,
    t_eps_obs: Array,
    t_eps_actions: Array,
    t_eps_rewards: Array,
):
    # eqx.filter_jit <<< slow :(
    @eqx.filter_jit  # expect: jit-fresh-function
    def loss_fn(
        l_model: PyTree,
        l_states: Array,
        l_rewards: Array,
        l_actions: Array,
    ) -> Array:
        global traces
        traces += 1
        logits = jax.vmap(l_model)(l_states)
        advantages = get_future_rewards(l_rewards)

        actions = l_actions.reshape(-1)

        l_loss_value = rlax.policy_gradient_loss(
            logits_t=logits,
            a_t=actions,
            adv_t=advantages,
            w_t=jnp.ones_like(advantages),
        )

        return l_loss_value

    loss_value, grads = eqx.filter_value_and_grad(loss_fn)(
        t_params, t_eps_obs, t_eps_rewards, t_eps_actions
    )
    updates, t_opt_state = t_optim.update(grads, t_opt_state, t_params)
    t_params = eqx.apply_updates(t_params, updates)
    return t_params, t_opt_state, loss_value


key = jax.random.PRNGKey(0)
model = eqx.nn.MLP(in_size=4, out_size=2, width_size=8, depth=2, key=key)
optim = optax.adam(1e-3)
opt_state = optim.init(eqx.filter(model, eqx.is_array))
for episode in range(5):
    key, k1, k2 = jax.random.split(key, 3)
    eps_obs = jax.random.normal(k1, (16, 4))
    eps_actions = jax.random.randint(k2, (16, 1), 0, 2)
    eps_rewards = jnp.ones(16)
    model, opt_state, loss_value = train(optim, opt_state, model, eps_obs, eps_actions, eps_rewards)
print("traces:", traces)  # 5: one per call of train, with the same shapes every time
