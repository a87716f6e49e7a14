"""The ``jaxtypes`` command (``main``) and its ``check`` subcommand, the linter.

Nothing else in jaxtypes imports it; it never imports the mypy plugin or jax.
"""
