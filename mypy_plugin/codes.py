"""mypy error codes, one per jaxtypes rule, so users can ignore or disable each by its code.

Building an ``ErrorCode`` registers it in ``mypy.errorcodes.error_codes``; doing it when the
plugin module is imported lets ``disable_error_code = ["static-bound-method"]`` name a plugin
code as soon as mypy has loaded the plugin.
"""

from __future__ import annotations

from mypy.errorcodes import ErrorCode

from jaxtypes._vocabulary.rules import ALL_RULES, Rule

CATEGORY = "jaxtypes"

ERROR_CODES: dict[str, ErrorCode] = {rule.code: ErrorCode(rule.code, rule.title, CATEGORY) for rule in ALL_RULES}


def error_code(rule: Rule) -> ErrorCode:
    """The mypy error code of ``rule``."""
    return ERROR_CODES[rule.code]
