"""The runtime's classes: the markers, ``static_dataclass`` and ``pytree_dataclass`` with their
compiled constructors and interning, and the judgement of values and declared types in static
positions (the twins of the plugin's ``declared_types``, ``static_values`` and ``markers``).

Imports the vocabulary, and jax only lazily.
"""
