"""``jaxtypes.jit``: the wrapper, the function jax traces, the compile log, devices, agreement of
static arguments across processes and their fingerprints, and the one door to jax's internals.

Imports the vocabulary and the classes.
"""
