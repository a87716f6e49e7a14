"""``--explain CODE``: a code's reference entry, read from docs/error-codes.md, and its web address.

An installed (non-editable) jaxtypes has no docs/ folder; it then prints the rule's own words
from ``jaxtypes._vocabulary.rules``, which the reference quotes verbatim, without the example.
"""

from __future__ import annotations

import re
from pathlib import Path

from jaxtypes._cli.check import UsageError
from jaxtypes._cli.check.findings import PLUGIN_CODES
from jaxtypes._vocabulary.rules import RULES_BY_CODE

ERROR_CODES_DOC = Path(__file__).resolve().parents[3] / "docs" / "error-codes.md"
REPOSITORY_URL = "https://github.com/jaxtypes/jaxtypes"
ERROR_CODES_URL = f"{REPOSITORY_URL}/blob/main/docs/error-codes.md"


def reference_url(code: str) -> str:
    """The address of the code's section of the reference, as GitHub renders it."""
    return f"{ERROR_CODES_URL}#{github_anchor(f'`{code}`')}"


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a Markdown heading: its text lower-cased, without punctuation
    other than ``-`` and ``_``, spaces turned into ``-``."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def sentence(text: str) -> str:
    """``text`` with a capital first letter and a full stop, as the rule table keeps neither."""
    return f"{text[:1].upper()}{text[1:]}."


def explain(code: str) -> str:
    """The section of the reference that starts with ``## `code```, up to the next section."""
    if code not in PLUGIN_CODES:
        raise UsageError(f"unknown code {code!r}; the codes are: {', '.join(sorted(PLUGIN_CODES))}")
    try:
        text = ERROR_CODES_DOC.read_text(encoding="utf-8")
    except OSError:
        rule = RULES_BY_CODE[code]
        return f"## `{code}`\n\n{sentence(rule.title)}\n\n**Why:** {rule.why}.\n\n**Fix:** {rule.fix}.\n"
    heading = f"## `{code}`"
    start = text.find(f"\n{heading}\n")
    if start < 0:
        raise UsageError(f"{ERROR_CODES_DOC} has no section {heading}")
    end = text.find("\n## ", start + 1)
    return text[start + 1 : None if end < 0 else end].strip() + "\n"
