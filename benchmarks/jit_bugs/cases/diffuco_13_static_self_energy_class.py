"""Source: https://github.com/ml-jku/DIffUCO/issues/13
Library: plain-jax
Correct: asked whether marking self static in the repository's jitted methods is safe (the JAX FAQ calls it unsafe), the maintainer answers that the code never updates attributes of the classes whose methods are jitted. The energy classes are built once from the config (get_Energy_class), set their attributes only in __init__ (including a jax.vmap of a jitted bound method), and are never changed afterwards, so the static self, hashed by identity, is one unchanging object: each method compiles once and no result is stale. A checker that reported every static self of a plain class would be wrong here.
Transcribed: EnergyFunctions/BaseEnergy.py and EnergyFunctions/IsingModelEnergy.py at commit c81e3c41a60595d9809c5f7be0f0aeaca2ec0925, cut to BaseEnergyClass.__init__, its abstract methods and calculate_Energy_per_node (calculate_Energy_CE and the other helpers are left out) and the whole of IsingModelEnergyClass; tabs became spaces; a four-node ring graph (a jraph GraphsTuple, as the repository uses), the object built once and repeated calls were added.
"""
from abc import ABC, abstractmethod
from functools import partial

import jax
import jax.numpy as jnp
import jraph


class BaseEnergyClass(ABC):

    def __init__(self, config):
        self.n_bernoulli_features = config["n_bernoulli_features"]
        self.vmap_calculate_Energy_per_node = jax.vmap(self.calculate_Energy_per_node, in_axes=(None, 0, None))
        pass

    @abstractmethod
    def calculate_Energy(self):
        raise ValueError("not implemented")

    @partial(jax.jit, static_argnums=(0,))
    def calculate_Energy_per_node(self, H_graph, bins, node_graph_idx):
        Energy, _, HB_per_graph = self.calculate_Energy(H_graph, bins, node_graph_idx)
        ### TODO move this inside calculate energy?
        #Energy_per_node = jnp.repeat(Energy, n_node, axis=0, total_repeat_length=total_nodes)
        return Energy, HB_per_graph

    @abstractmethod
    def calculate_relaxed_Energy(self):
        pass

    @abstractmethod
    def calculate_Energy_loss(self, H_graph, logits, node_gr_idx, Energy_func):
        p = jnp.exp(logits[...,1])
        return None


class IsingModelEnergyClass(BaseEnergyClass):
    def __init__(self, config):
        super().__init__(config)
        pass

    @partial(jax.jit, static_argnums=(0,))
    def calculate_Energy(self, H_graph, bins, node_gr_idx):
        spins = 2 * bins - 1

        n_graph = H_graph.n_node.shape[0]
        nodes = H_graph.nodes
        total_num_nodes = jax.tree_util.tree_leaves(nodes)[0].shape[0]

        raveled_spins = jnp.reshape(spins, (bins.shape[0], 1))

        Energy_messages = (raveled_spins[H_graph.senders]) * (raveled_spins[H_graph.receivers])

        Energy_per_node = jax.ops.segment_sum(Energy_messages, H_graph.receivers, total_num_nodes)
        Energy = - 1/2 * jax.ops.segment_sum(Energy_per_node, node_gr_idx, n_graph)

        return Energy, bins, Energy
    
    def calculate_relaxed_Energy(self, H_graph, bins, node_gr_idx):
        self.calculate_Energy(H_graph, bins, node_gr_idx)

    @partial(jax.jit, static_argnums=(0,))
    def calculate_Energy_loss(self, H_graph, logits, node_gr_idx):
        p = jnp.exp(logits[...,1])
        return self.calculate_Energy(H_graph, p, node_gr_idx)


H_graph = jraph.GraphsTuple(
    nodes=jnp.zeros((4, 1)),
    edges=jnp.ones((8, 1)),
    senders=jnp.array([0, 1, 2, 3, 1, 2, 3, 0]),
    receivers=jnp.array([1, 2, 3, 0, 0, 1, 2, 3]),
    n_node=jnp.array([4]),
    n_edge=jnp.array([8]),
    globals=None,
)
node_gr_idx = jnp.zeros((4,), dtype=jnp.int32)

energy_class = IsingModelEnergyClass({"n_bernoulli_features": 3})
for bins in (jnp.array([0, 1, 0, 1]), jnp.array([1, 1, 1, 1])):
    print(energy_class.calculate_Energy(H_graph, bins, node_gr_idx)[0])
    print(energy_class.calculate_Energy_per_node(H_graph, bins, node_gr_idx)[0])
print(energy_class.vmap_calculate_Energy_per_node(H_graph, jnp.array([[0, 1, 0, 1], [1, 1, 1, 1]]), node_gr_idx)[0])
print(energy_class.calculate_Energy_loss(H_graph, jnp.log(jnp.full((4, 2), 0.5)), node_gr_idx)[0])
