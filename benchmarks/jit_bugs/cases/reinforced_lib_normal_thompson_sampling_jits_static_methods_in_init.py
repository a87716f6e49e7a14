"""Source: https://github.com/m-wojnar/reinforced-lib/blob/796f1990f6559d41f4e53097797ee3db3ccc33d6/reinforced_lib/agents/mab/normal_thompson_sampling.py
Library: plain-jax
Correct: reinforced-lib's multi-armed-bandit agents keep `init`, `update` and `sample` as static methods and, in `__init__`, replace them on the instance with `jax.jit` of the plain function (`update`, `sample`) or of a `functools.partial` binding the agent's hyperparameters (`init`). Each jitted function is made once per agent and kept on the instance; the static methods close over nothing mutable and `self` is never an argument, so nothing can go stale, and the library builds one agent per `RLib` and calls the kept functions at every step (the pattern its custom-agent guide prescribes). A checker that reports `jax.jit` of a `partial` or of a method accessed through `self`, or a jit inside `__init__`, would flag it.
Transcribed: the agent module at the commit named, with `parameter_space` and the three Gymnasium space properties left out (gymnasium is not installed) and the docstrings kept; chex is not installed, so `chex.dataclass` is stood in for by `flax.struct.dataclass` (both register a frozen pytree dataclass) and `BaseAgent`/`AgentState` (reinforced_lib/agents/base_agent.py) are cut to the abstract static methods. The bandit loop at the end stands in for `RLib.sample`/`RLib.update` (reinforced_lib/rlib.py), which call the agent's kept functions with a fresh key per step.
"""
from abc import ABC, abstractmethod
from functools import partial

import jax
import jax.numpy as jnp
from flax.struct import dataclass
from jax import Array

PRNGKey = Array
Scalar = float


@dataclass
class AgentState:
    """
    Base class for agent state containers.
    """


class BaseAgent(ABC):
    """
    Base interface of agents.
    """

    @staticmethod
    @abstractmethod
    def init(key: PRNGKey, *args, **kwargs) -> AgentState:
        pass

    @staticmethod
    @abstractmethod
    def update(state: AgentState, key: PRNGKey, *args, **kwargs) -> AgentState:
        pass

    @staticmethod
    @abstractmethod
    def sample(state: AgentState, key: PRNGKey, *args, **kwargs) -> any:
        pass


@dataclass
class NormalThompsonSamplingState(AgentState):
    """
    Container for the state of the normal Thompson sampling agent.

    Attributes
    ----------
    alpha : Array
        The concentration parameter of the inverse-gamma distribution.
    beta : Array
        The scale parameter of the inverse-gamma distribution.
    lam : Array
        The number of observations.
    mu : Array
        The mean of the normal distribution.
    """

    alpha: Array
    beta: Array
    lam: Array
    mu: Array


class NormalThompsonSampling(BaseAgent):
    r"""
    Normal Thompson sampling agent [11]_. The normal-inverse-gamma distribution is a conjugate prior for the normal
    distribution with unknown mean and variance. The parameters of the distribution are updated after each observation.
    The mean of the normal distribution is sampled from the normal-inverse-gamma distribution and the action with
    the highest expected value is selected.

    Parameters
    ----------
    n_arms : int
        Number of bandit arms. :math:`N \in \mathbb{N}_{+}` .
    alpha : float
        See also ``NormalThompsonSamplingState`` for interpretation. :math:`\alpha > 0`.
    beta : float
        See also ``NormalThompsonSamplingState`` for interpretation. :math:`\beta > 0`.
    lam : float
        See also ``NormalThompsonSamplingState`` for interpretation. :math:`\lambda > 0`.
    mu : float
        See also ``NormalThompsonSamplingState`` for interpretation. :math:`\mu \in \mathbb{R}`.

    References
    ----------
    .. [11] Kevin P. Murphy. 2007. Conjugate Bayesian analysis of the Gaussian distribution.
       https://www.cs.ubc.ca/~murphyk/Papers/bayesGauss.pdf
    """

    def __init__(
            self,
            n_arms: int,
            alpha: Scalar,
            beta: Scalar,
            lam: Scalar,
            mu: Scalar
    ) -> None:
        assert alpha > 0
        assert beta > 0
        assert lam >= 0

        self.n_arms = n_arms

        self.init = jax.jit(partial(self.init, n_arms=self.n_arms, alpha=alpha, beta=beta, lam=lam, mu=mu))
        self.update = jax.jit(self.update)
        self.sample = jax.jit(self.sample)

    @staticmethod
    def init(
            key: PRNGKey,
            n_arms: int,
            alpha: Scalar,
            beta: Scalar,
            lam: Scalar,
            mu: Scalar
    ) -> NormalThompsonSamplingState:
        r"""
        Creates and initializes an instance of the normal Thompson sampling agent for ``n_arms`` arms and the
        given initial parameters for the prior distribution.

        Parameters
        ----------
        key : PRNGKey
            A PRNG key used as the random key.
        n_arms : int
            Number of bandit arms.
        alpha : float
            See also ``NormalThompsonSamplingState`` for interpretation.
        beta : float
            See also ``NormalThompsonSamplingState`` for interpretation.
        lam : float
            See also ``NormalThompsonSamplingState`` for interpretation.
        mu : float
            See also ``NormalThompsonSamplingState`` for interpretation.
        Returns
        -------
        NormalThompsonSamplingState
            Initial state of the normal Thompson sampling agent.
        """

        return NormalThompsonSamplingState(
            alpha=jnp.full((n_arms, 1), alpha),
            beta=jnp.full((n_arms, 1), beta),
            lam=jnp.full((n_arms, 1), lam),
            mu=jnp.full((n_arms, 1), mu)
        )

    @staticmethod
    def update(
            state: NormalThompsonSamplingState,
            key: PRNGKey,
            action: int,
            reward: Scalar
    ) -> NormalThompsonSamplingState:
        r"""
        Normal Thompson sampling update according to [11]_.

        .. math::
          \begin{align}
            \alpha_{t + 1}(a) &= \alpha_t(a) + \frac{1}{2} \\
            \beta_{t + 1}(a) &= \beta_t(a) + \frac{\lambda_t(a) (r_t(a) - \mu_t(a))^2}{2 (\lambda_t(a) + 1)} \\
            \lambda_{t + 1}(a) &= \lambda_t(a) + 1 \\
            \mu_{t + 1}(a) &= \frac{\mu_t(a) \lambda_t(a) + r_t(a)}{\lambda_t(a) + 1}
          \end{align}

        Parameters
        ----------
        state : NormalThompsonSamplingState
            Current state of the agent.
        key : PRNGKey
            A PRNG key used as the random key.
        action : int
            Previously selected action.
        reward : Float
            Reward obtained upon execution of action.

        Returns
        -------
        NormalThompsonSamplingState
            Updated agent state.
        """

        lam = state.lam[action]
        mu = state.mu[action]

        return NormalThompsonSamplingState(
            alpha=state.alpha.at[action].add(1 / 2),
            beta=state.beta.at[action].add((lam * jnp.square(reward - mu)) / (2 * (lam + 1))),
            lam=state.lam.at[action].add(1),
            mu=state.mu.at[action].set((mu * lam + reward) / (lam + 1))
        )

    @staticmethod
    def inverse_gamma(key: PRNGKey, concentration: Array, scale: Array) -> Array:
        r"""
        Samples from the inverse gamma distribution. Implementation is based on the gamma distribution and the
        following dependence:

        .. math::
          \begin{gather}
              X \sim \operatorname{Gamma}(\alpha, \beta) \\
              \frac{1}{X} \sim \operatorname{Inverse-gamma}(\alpha, \frac{1}{\beta})
          \end{gather}

        Parameters
        ----------
        key : PRNGKey
            A PRNG key used as the random key.
        concentration : Array
            The concentration parameter of the inverse-gamma distribution.
        scale : Array
            The scale parameter of the inverse-gamma distribution.

        Returns
        -------
        Array
            Sampled values from the inverse gamma distribution.
        """

        gamma = jax.random.gamma(key, concentration) / scale
        return 1 / gamma

    @staticmethod
    def sample(state: NormalThompsonSamplingState, key: PRNGKey) -> int:
        r"""
        The normal Thompson sampling policy is stochastic. The algorithm draws :math:`q_a` from the distribution
        :math:`\operatorname{Normal}(\mu(a), \operatorname{scale}(a)/\sqrt{\lambda(a)})` for each arm :math:`a` where
        :math:`\text{scale}(a)` is sampled from the inverse gamma distribution with parameters :math:`\alpha(a)` and
        :math:`\beta(a)`. The next action is selected as :math:`A = \operatorname*{argmax}_{a \in \mathscr{A}} q_a`,
        where :math:`\mathscr{A}` is a set of all actions.

        Parameters
        ----------
        state : NormalThompsonSamplingState
            Current state of the agent.
        key : PRNGKey
            A PRNG key used as the random key.

        Returns
        -------
        int
            Selected action.
        """

        loc_key, scale_key = jax.random.split(key)

        scale = jnp.sqrt(NormalThompsonSampling.inverse_gamma(scale_key, state.alpha, state.beta))
        loc = state.mu + jax.random.normal(loc_key, shape=state.mu.shape) * scale / jnp.sqrt(state.lam)

        return jnp.argmax(loc)


agent = NormalThompsonSampling(n_arms=4, alpha=1.0, beta=1.0, lam=0.0, mu=0.0)
key = jax.random.PRNGKey(42)
key, init_key = jax.random.split(key)
state = agent.init(init_key)
true_means = jnp.array([0.1, 0.5, 0.9, 0.3])
for step in range(50):
    key, sample_key, update_key, reward_key = jax.random.split(key, 4)
    action = agent.sample(state, sample_key)
    reward = true_means[action] + 0.1 * jax.random.normal(reward_key)
    state = agent.update(state, update_key, action, reward)
print("most pulled arm:", int(jnp.argmax(state.lam[:, 0])))
print("compiles:", agent.init._cache_size(), agent.sample._cache_size(), agent.update._cache_size())
