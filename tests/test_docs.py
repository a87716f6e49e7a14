"""The error-code reference says exactly what the rules say, for every rule."""

from pathlib import Path

import pytest

from jaxtypes._vocabulary.rules import ALL_RULES, Rule

REFERENCE = (Path(__file__).resolve().parent.parent / "docs" / "error-codes.md").read_text()


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda rule: rule.code)
def test_every_code_has_an_entry_with_the_rule_words(rule: Rule) -> None:
    section = REFERENCE.split(f"## `{rule.code}`\n", 1)[1].split("\n## ", 1)[0]
    assert "```python\n" in section
    assert f"**Why:** {rule.why}." in section
    assert f"**Fix:** {rule.fix}." in section
