"""SARIF 2.1.0, the format GitHub code scanning and GitLab read.

One result per finding, its rule described from ``jaxtypes._vocabulary.rules`` (title, why, fix) with the
address of its section of docs/error-codes.md. Regions follow SARIF: 1-based lines and columns
counted in characters, the end column one past the last character. Each result carries the
baseline's fingerprint of its line, which stays the same when lines elsewhere change, numbered
like GitHub's own line hashes (``:1``, ``:2``) where one file has the same finding twice.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import quote

from jaxtypes import __version__
from jaxtypes._cli.check.baseline import fingerprint
from jaxtypes._cli.check.explain import REPOSITORY_URL, reference_url, sentence
from jaxtypes._cli.check.findings import Finding, Report
from jaxtypes._vocabulary.rules import ALL_RULES, RULES_BY_CODE

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
MYPY_CODES_URL = "https://mypy.readthedocs.io/en/stable/error_code_list.html"
SOURCE_ROOT = "%SRCROOT%"
"""The base of relative paths: the working folder, where code scanning expects the checkout."""


def write_sarif(report: Report, out: TextIO) -> None:
    """One SARIF log with one run: every jaxtypes rule, and mypy's codes that have results."""
    extra = sorted({finding.code for finding in report.findings if finding.code and finding.code not in RULES_BY_CODE})
    codes = [rule.code for rule in ALL_RULES] + extra
    index = {code: position for position, code in enumerate(codes)}
    run = {
        "tool": {
            "driver": {
                "name": "jaxtypes",
                "version": __version__,
                "informationUri": REPOSITORY_URL,
                "rules": [_rule(code) for code in codes],
            }
        },
        "originalUriBaseIds": {SOURCE_ROOT: {"uri": Path.cwd().as_uri() + "/"}},
        "columnKind": "unicodeCodePoints",
        "results": _results(report.findings, index),
    }
    document = {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}
    out.write(json.dumps(document, indent=2) + "\n")


def _rule(code: str) -> dict[str, Any]:
    rule = RULES_BY_CODE.get(code)
    if rule is None:
        return {"id": code, "shortDescription": {"text": f"mypy's {code} check"}, "helpUri": MYPY_CODES_URL}
    uri = reference_url(code)
    return {
        "id": code,
        "shortDescription": {"text": sentence(rule.title)},
        "fullDescription": {"text": f"{sentence(rule.title)[:-1]}: {rule.why}."},
        "help": {
            "text": sentence(rule.fix),
            "markdown": f"**Why:** {rule.why}.\n\n**Fix:** {rule.fix}.\n\n[`{code}` in the reference]({uri})",
        },
        "helpUri": uri,
        "defaultConfiguration": {"level": "error"},
    }


def _results(findings: list[Finding], index: dict[str, int]) -> list[dict[str, Any]]:
    occurrences: Counter[tuple[str, str, str]] = Counter()
    results = []
    for finding in findings:
        key = (finding.path, finding.code, fingerprint(finding))
        occurrences[key] += 1
        results.append(_result(finding, index, f"{key[2]}:{occurrences[key]}"))
    return results


def _result(finding: Finding, index: dict[str, int], line_hash: str) -> dict[str, Any]:
    region = {
        "startLine": finding.line,
        "startColumn": finding.column,
        "endLine": finding.end_line,
        "endColumn": finding.end_column + 1,
    }
    result: dict[str, Any] = {"ruleId": finding.code, "ruleIndex": index[finding.code]} if finding.code else {}
    result |= {
        "level": "error" if finding.severity == "error" else "note",
        "message": _message(finding),
        "locations": [{"physicalLocation": {"artifactLocation": _artifact(finding.path), "region": region}}],
        "partialFingerprints": {"jaxtypesLineHash/v1": line_hash},
    }
    if finding.why or finding.fix:
        result["properties"] = {"why": finding.why, "fix": finding.fix}
    return result


def _message(finding: Finding) -> dict[str, str]:
    """The headline as the text; with why, the fix and mypy's notes below it in the Markdown."""
    below = [f"**{line.partition(': ')[0].capitalize()}:** {line.partition(': ')[2]}" for line in finding.explanation()]
    return {"text": finding.message, "markdown": "\n\n".join([finding.message, *below])}


def _artifact(path: str) -> dict[str, str]:
    """A file's location: relative to the source root, or a file URI when mypy names it absolutely."""
    if os.path.isabs(path):
        return {"uri": Path(path).as_uri()}
    return {"uri": quote(Path(path).as_posix()), "uriBaseId": SOURCE_ROOT}
