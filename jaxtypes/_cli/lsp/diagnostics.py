"""A finding as the editor shows it: a diagnostic with its code, a link to the code's reference,
the lines its evidence names as related places, and the hover text (why it matters, the fix)."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from jaxtypes._cli.check.explain import reference_url
from jaxtypes._cli.check.findings import Finding
from jaxtypes._vocabulary import phrases

SOURCE = "jaxtypes"


def diagnostic(finding: Finding, uri: str) -> types.Diagnostic:
    """``finding`` (in the file at ``uri``) as an LSP diagnostic."""
    related = [
        types.DiagnosticRelatedInformation(types.Location(uri, line_range(line)), "the evidence")
        for line in phrases.evidence_lines(finding.message)
    ]
    return types.Diagnostic(
        range=finding_range(finding),
        message=finding.message,
        severity=types.DiagnosticSeverity.Error,
        code=finding.code,
        code_description=types.CodeDescription(href=reference_url(finding.code)),
        source=SOURCE,
        related_information=related or None,
        data={"why": finding.why, "fix": finding.fix},
    )


def trouble_diagnostic(message: str, line: int) -> types.Diagnostic:
    """What stopped the analysis (a configuration problem, a syntax error), on its file's line."""
    return types.Diagnostic(
        range=line_range(line), message=message, severity=types.DiagnosticSeverity.Error, source=SOURCE
    )


def finding_range(finding: Finding) -> types.Range:
    """The finding's place: 1-based and end-inclusive in a finding, 0-based and end-exclusive here."""
    return types.Range(
        types.Position(finding.line - 1, finding.column - 1), types.Position(finding.end_line - 1, finding.end_column)
    )


def line_range(line: int) -> types.Range:
    """The whole of a 1-based line."""
    return types.Range(types.Position(max(line - 1, 0), 0), types.Position(max(line, 1), 0))


def hover_text(diagnostic: types.Diagnostic) -> str:
    """Why the finding matters for jit and its fix, as Markdown, with the reference's address."""
    data = diagnostic.data if isinstance(diagnostic.data, dict) else {}
    lines = [f"**{diagnostic.code}**: {diagnostic.message}"]
    lines += [f"**Why:** {data['why']}."] if data.get("why") else []
    lines += [f"**Fix:** {data['fix']}."] if data.get("fix") else []
    if diagnostic.code_description is not None:
        lines.append(f"[`{diagnostic.code}` in the reference]({diagnostic.code_description.href})")
    return "\n\n".join(lines)


def uri_of(path: Path) -> str:
    return path.resolve().as_uri()
