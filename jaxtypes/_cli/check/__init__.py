"""``jaxtypes check``: the jit-safety linter, mypy with the jaxtypes plugin, reporting only its rules.

One module per job: :mod:`.mypy_run` runs mypy in process and collects its diagnostics,
:mod:`.findings` selects the ones to report, :mod:`.formats` prints them, :mod:`.explain`
looks up a code's reference entry. The command line lives in :mod:`jaxtypes._cli.main`.
"""


class UsageError(Exception):
    """A mistake in the command or the configuration: reported in one line, exit status 2."""
