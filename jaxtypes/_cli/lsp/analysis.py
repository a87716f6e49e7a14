"""Analyses of a project's open files: mypy with the plugin, as ``jaxtypes check`` runs it.

The same job (``check.mypy_run``), configuration, selection (``select``, ``ignore``, the opt-in
codes they turn on) and baseline as ``jaxtypes check`` give the same findings, codes and words.
Each analysis goes on from the fine-grained build the last one left (``live_build``): only what
an edit affects is checked again. Whatever stops a run (a configuration mypy or jaxtypes rejects,
a syntax error, a mypy crash, an internal error of the plugin) is kept as one ``Trouble``, not
raised; after a crash, or a configuration other than the build's, the build starts afresh.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from jaxtypes._cli.check import UsageError
from jaxtypes._cli.check.baseline import compare, judged_by, read_baseline
from jaxtypes._cli.check.findings import Finding, Selection, select
from jaxtypes._cli.check.mypy_run import disable_codes, enable_codes, prepare_mypy
from jaxtypes._cli.lsp.live_build import UNSHOWN_CODES, LiveBuild
from jaxtypes._vocabulary.rules import OPT_IN_CODES
from jaxtypes._vocabulary.settings import CONFIG_FILE_NAMES, SettingsError, read_settings


class Trouble(NamedTuple):
    """What kept a run from checking: its words, the file they are about (the configuration
    file, a file with a syntax error; None for a crash) and the line there."""

    message: str
    path: Path | None
    line: int = 1


class Analysis(NamedTuple):
    """The findings to show, by absolute path (every checked file has an entry, maybe empty),
    the baseline the project compares with, and what stopped the run, if anything did."""

    findings: dict[Path, list[Finding]]
    baseline: Path | None
    trouble: Trouble | None = None


class Analyser:
    """The analyses of one project, one at a time, and the build they go on from."""

    def __init__(self) -> None:
        self._build: LiveBuild | None = None

    def forget(self) -> None:
        """Have the next analysis build from scratch (a configuration file was saved: what it
        changes is not all in mypy's options, e.g. a plugin's code)."""
        self._build = None

    def analyse(self, root: Path, paths: Iterable[Path], saved: Iterable[Path] = ()) -> Analysis:
        """Check ``paths`` (files of the project at ``root``, the working folder) with the plugin,
        reading those ``saved`` since the last analysis afresh (``LiveBuild.check``)."""
        checked = sorted({path.resolve() for path in paths if path.is_file()})
        if not checked:
            return Analysis({}, None)
        try:
            job = prepare_mypy([str(path) for path in checked], config_file=None, cache_dir=None, workers=None)
            settings = read_settings(job.options.config_file)
            baseline = Path(settings.baseline) if settings.baseline is not None else None
            entries = read_baseline(baseline) if baseline is not None and baseline.exists() else []
        except (UsageError, SettingsError) as error:
            return Analysis({}, None, Trouble(str(error), _config_file(root)))
        selection = Selection.configured(settings)
        enable_codes(job, selection.only & OPT_IN_CODES)
        disable_codes(job, UNSHOWN_CODES)
        if self._build is None or not self._build.serves(job.options, settings):
            self._build = LiveBuild(job.options, settings)
        outcome = self._build.check(job.sources, saved)
        if outcome.crash:
            self._build = None
            return Analysis({}, baseline, Trouble(f"mypy crashed: {outcome.crash.splitlines()[-1]}", None))
        stopped = outcome.stopped or [finding for finding in outcome.findings if finding.is_plugin_internal_error]
        if stopped:
            first = stopped[0]
            words = f"{first.code} {first.message}" if first.code else first.message
            return Analysis({}, baseline, Trouble(f"mypy stopped: {words}", Path(first.path).resolve(), first.line))
        shown = select(outcome.findings, selection)
        if baseline is not None:
            folder = baseline.resolve().parent
            judged = judged_by(folder, [str(path) for path in checked], selection.wants)
            shown = compare(entries, shown, folder, judged).new
        findings: dict[Path, list[Finding]] = {path: [] for path in checked}
        for finding in shown:
            findings.setdefault(Path(finding.path).resolve(), []).append(finding)
        return Analysis(findings, baseline)


def _config_file(root: Path) -> Path | None:
    """The configuration file mypy reads in ``root``, where a configuration problem is shown."""
    return next((root / name for name in CONFIG_FILE_NAMES if (root / name).is_file()), None)


def in_project(root: Path, path: Path) -> bool:
    """Whether ``path`` is a Python file under ``root`` (files elsewhere are not the project's)."""
    return path.suffix in (".py", ".pyi") and os.path.commonpath([root, path.resolve()]) == str(root)
