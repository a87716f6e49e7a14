"""How the plugin reports a problem: mypy error codes, one per jaxtypes rule, and the layout of
a finding (the headline as the error, why and the fix as notes under it).

Users ignore or disable a finding by its code; the notes carry the same code, so they go with it.

Building an ``ErrorCode`` registers it in ``mypy.errorcodes.error_codes``; doing it when the
plugin module is imported lets ``disable_error_code = ["static-bound-method"]`` name a plugin
code as soon as mypy has loaded the plugin.
"""

from __future__ import annotations

from mypy.errorcodes import ErrorCode
from mypy.nodes import Context
from mypy.plugin import CheckerPluginInterface, SemanticAnalyzerPluginInterface

from jaxtypes._vocabulary.phrases import Problem
from jaxtypes._vocabulary.rules import ALL_RULES, Rule
from mypy_plugin.mypy_internals import note

CATEGORY = "jaxtypes"

ERROR_CODES: dict[str, ErrorCode] = {
    rule.code: ErrorCode(rule.code, rule.title, CATEGORY, default_enabled=not rule.opt_in) for rule in ALL_RULES
}


def error_code(rule: Rule) -> ErrorCode:
    """The mypy error code of ``rule``."""
    return ERROR_CODES[rule.code]


def report(
    api: CheckerPluginInterface | SemanticAnalyzerPluginInterface, problem: Problem, where: str, context: Context
) -> None:
    """``problem`` of the class, field or parameter ``where`` names, at ``context``."""
    message = problem.message(where)
    code = error_code(problem.rule)
    api.fail(message.headline, context, code=code)
    for line in message.notes():
        note(api, line, context, code)
