"""Observation of live values at run time: ``jaxtypes.audit`` of a pytree's static parts.

Imports the vocabulary, the classes and jit's door to jax.
"""
