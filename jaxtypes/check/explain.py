"""``--explain CODE``: a code's reference entry, read from docs/error-codes.md.

An installed (non-editable) jaxtypes has no docs/ folder; it then prints the rule's own words
from ``jaxtypes.rules``, which the reference quotes verbatim, without the example.
"""

from __future__ import annotations

from pathlib import Path

from jaxtypes.check import UsageError
from jaxtypes.check.findings import PLUGIN_CODES
from jaxtypes.rules import RULES_BY_CODE

ERROR_CODES_DOC = Path(__file__).resolve().parents[2] / "docs" / "error-codes.md"


def explain(code: str) -> str:
    """The section of the reference that starts with ``## `code```, up to the next section."""
    if code not in PLUGIN_CODES:
        raise UsageError(f"unknown code {code!r}; the codes are: {', '.join(sorted(PLUGIN_CODES))}")
    try:
        text = ERROR_CODES_DOC.read_text(encoding="utf-8")
    except OSError:
        rule = RULES_BY_CODE[code]
        return f"## `{code}`\n\n{rule.title[0].upper()}{rule.title[1:]}.\n\n**Why:** {rule.why}.\n\n**Fix:** {rule.fix}.\n"
    heading = f"## `{code}`"
    start = text.find(f"\n{heading}\n")
    if start < 0:
        raise UsageError(f"{ERROR_CODES_DOC} has no section {heading}")
    end = text.find("\n## ", start + 1)
    return text[start + 1 : None if end < 0 else end].strip() + "\n"
