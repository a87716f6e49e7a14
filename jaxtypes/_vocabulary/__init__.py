"""What both halves say: the rule table, the sentences, which positions are static, the settings,
other libraries' names and the full names the plugin hooks.

The mypy plugin imports this package at mypy start-up, so it imports neither jax nor mypy nor
the rest of jaxtypes (``tests/packaging/test_import_layers.py`` keeps it so).
"""
