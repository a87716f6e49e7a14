"""How the mypy plugin words its own internal errors, so ``jaxtypes check`` can tell them apart.

The plugin reports an exception inside one of its hooks as a mypy error starting with
``INTERNAL_ERROR``; ``jaxtypes check`` reads mypy's output and looks for that prefix. It lives
here, beside the rule vocabulary, so that the checker needs neither the plugin nor mypy to know it.
It imports neither jax nor mypy.
"""

INTERNAL_ERROR = "jaxtypes mypy plugin: internal error"
"""How an exception inside a plugin hook starts its message."""
