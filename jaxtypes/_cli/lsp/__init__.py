"""``jaxtypes lsp``: the jit findings of ``jaxtypes check`` in any editor, as a language server.

``server`` answers the editor (pygls over stdio); ``analysis`` runs mypy with the plugin as
``jaxtypes check`` does and keeps its findings per file; ``live_build`` keeps mypy's fine-grained
build between analyses, as mypy's daemon does; ``diagnostics`` words a finding for the editor
(code, link, hover); ``code_actions`` holds the mechanical fixes.
"""
