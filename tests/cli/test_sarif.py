"""``--format sarif``: SARIF 2.1.0 for GitHub code scanning and GitLab, checked against its schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema

import jaxtypes
from check_runner import PROJECT, REPO, Check, project_ini
from jaxtypes._cli.check.explain import ERROR_CODES_URL, github_anchor
from jaxtypes._vocabulary.rules import ALL_RULES

# The OASIS SARIF 2.1.0 schema ("$id": https://raw.githubusercontent.com/oasis-tcs/sarif-spec/master/
# Schemata/sarif-schema-2.1.0.json), byte for byte as https://json.schemastore.org/sarif-2.1.0.json
# serves it (sha256 7402cdfd5bfbff98071b3358e573041b86adb7e1c6ec8743303f93715937c371).
SCHEMA = json.loads((Path(__file__).with_name("sarif-schema-2.1.0.json")).read_text(encoding="utf-8"))


def valid_sarif(stdout: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(stdout)
    jsonschema.Draft7Validator(SCHEMA).validate(document)
    return document


def test_the_examples_give_valid_sarif_with_one_result_per_finding(check: Check) -> None:
    sarif = check("--format", "sarif", "examples/", cwd=REPO)
    findings = json.loads(check("--format", "json", "examples/", cwd=REPO).stdout)["findings"]
    assert sarif.returncode == 1, sarif.stderr
    (run,) = valid_sarif(sarif.stdout)["runs"]
    assert len(findings) >= 10
    assert [
        (
            result["ruleId"],
            result["locations"][0]["physicalLocation"]["artifactLocation"],
            result["locations"][0]["physicalLocation"]["region"],
            result["message"]["text"],
            result["level"],
        )
        for result in run["results"]
    ] == [
        (
            finding["code"],
            {"uri": finding["path"], "uriBaseId": "%SRCROOT%"},
            {
                "startLine": finding["line"],
                "startColumn": finding["column"],
                "endLine": finding["end_line"],
                "endColumn": finding["end_column"] + 1,  # SARIF's end column is one past the last character
            },
            finding["message"],
            "error",
        )
        for finding in findings
    ]
    rules = run["tool"]["driver"]["rules"]
    assert all(rules[result["ruleIndex"]]["id"] == result["ruleId"] for result in run["results"])
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == REPO.as_uri() + "/"
    located = {
        (
            result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            result["partialFingerprints"]["jaxtypesLineHash/v1"],
        )
        for result in run["results"]
    }
    assert len(located) == len(findings)  # one fingerprint per finding in its file (two files may share code)


def test_the_tool_and_every_rule_are_described_from_the_rule_table(check: Check) -> None:
    (run,) = valid_sarif(check("--format", "sarif", "buggy.py").stdout)["runs"]
    driver = run["tool"]["driver"]
    assert (driver["name"], driver["version"]) == ("jaxtypes", jaxtypes.__version__)
    headings = {
        github_anchor(line.removeprefix("## "))
        for line in (REPO / "docs" / "error-codes.md").read_text().splitlines()
        if line.startswith("## ")
    }
    assert [rule["id"] for rule in driver["rules"]] == [rule.code for rule in ALL_RULES]
    for described, rule in zip(driver["rules"], ALL_RULES):
        title = rule.title[0].upper() + rule.title[1:]
        assert described["shortDescription"] == {"text": f"{title}."}
        assert described["fullDescription"] == {"text": f"{title}: {rule.why}."}
        assert described["help"]["text"] == rule.fix[0].upper() + rule.fix[1:] + "."
        assert described["helpUri"] == f"{ERROR_CODES_URL}#{rule.code}"
        assert rule.code in headings  # the anchor GitHub gives the rule's heading
    assert ERROR_CODES_URL == "https://github.com/jaxtypes/jaxtypes/blob/main/docs/error-codes.md"


def test_all_describes_mypy_codes_and_notes_too(check: Check) -> None:
    (run,) = valid_sarif(check("--all", "--format", "sarif", "messy.py").stdout)["runs"]
    mypy_rules = [rule for rule in run["tool"]["driver"]["rules"] if rule["id"] not in {r.code for r in ALL_RULES}]
    assert [rule["id"] for rule in mypy_rules] == ["arg-type", "assignment", "name-defined", "return-value"]
    assert mypy_rules[0]["shortDescription"] == {"text": "mypy's arg-type check"}
    assert {result["ruleId"] for result in run["results"]} == {rule["id"] for rule in mypy_rules}


def test_a_clean_run_is_valid_sarif_with_no_results(check: Check) -> None:
    result = check("--format", "sarif", "messy.py")
    assert result.returncode == 0
    assert valid_sarif(result.stdout)["runs"][0]["results"] == []


def test_paths_are_uri_references(check: Check, tmp_path: Path) -> None:
    (tmp_path / "mypy.ini").write_text(project_ini())
    (tmp_path / "my src").mkdir()
    (tmp_path / "my src" / "spaced.py").write_text((PROJECT / "buggy.py").read_text())
    (run,) = valid_sarif(check("--format", "sarif", "my src/spaced.py", cwd=tmp_path).stdout)["runs"]
    locations = [result["locations"][0]["physicalLocation"]["artifactLocation"] for result in run["results"]]
    assert locations == [{"uri": "my%20src/spaced.py", "uriBaseId": "%SRCROOT%"}] * 2
