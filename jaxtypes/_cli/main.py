"""The ``jaxtypes`` command: ``jaxtypes check [PATHS...]``, the jit-safety linter.

Exit status: 0 no findings, 1 findings, 2 a usage or configuration error, or mypy stopped or
crashed (never 0 when nothing was really checked).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from jaxtypes._cli.check import UsageError
from jaxtypes._cli.check.baseline import Entry, Judged, compare, judged_by, read_baseline, updated, write_baseline
from jaxtypes._cli.check.explain import explain
from jaxtypes._cli.check.findings import PLUGIN_CODES, Finding, Report, Selection, select
from jaxtypes._cli.check.formats import WRITERS, headline
from jaxtypes._cli.check.mypy_run import MypyJob, MypyOutcome, enable_codes, prepare_mypy, run_mypy
from jaxtypes._cli.check.progress import Progress
from jaxtypes._cli.run import add_parser as add_run_parser
from jaxtypes._cli.run import run
from jaxtypes._vocabulary.rules import OPT_IN_CODES
from jaxtypes._vocabulary.settings import Settings, SettingsError, read_settings

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); return the exit status."""
    args = _parser().parse_args(argv)
    if args.command == "run":
        return run(args)
    if args.command == "lsp":
        return _lsp()
    try:
        if args.explain:
            sys.stdout.write(explain(args.explain))
            return EXIT_CLEAN
        return _check(args)
    except (UsageError, SettingsError) as error:
        sys.stderr.write(f"jaxtypes check: error: {error}\n")
        return EXIT_ERROR


def _check(args: argparse.Namespace) -> int:
    job = prepare_mypy(args.paths, config_file=args.config_file, cache_dir=args.cache_dir, workers=args.workers)
    settings = read_settings(job.options.config_file)
    selection = Selection.configured(
        settings,
        only=_codes(args.select, args.all) if args.select is not None else None,
        ignore=_codes(args.ignore, args.all) if args.ignore is not None else None,
    )._replace(everything=args.all)
    enable_codes(job, selection.only & OPT_IN_CODES)
    baseline = _baseline_file(args, settings)
    # Read before the long run, so that a missing or malformed baseline stops it at once.
    writing = bool(args.write_baseline)
    entries = read_baseline(baseline) if baseline is not None and (baseline.exists() or not writing) else []
    outcome = _run(job, quiet=args.quiet)
    if _report_failure(outcome):
        return EXIT_ERROR
    shown = select(outcome.findings, selection)
    errors = [finding for finding in outcome.findings if finding.severity == "error"]
    hidden = sum(1 for finding in errors if finding not in shown and not finding.from_plugin)
    report = Report(shown, outcome.files_checked, hidden)
    if baseline is not None:
        checked = [*_source_paths(job), *(finding.path for finding in shown)]
        judged = judged_by(baseline.resolve().parent, checked, selection.wants)
        report = _with_baseline(report, baseline, entries, judged, write=writing)
    WRITERS[args.format](report, sys.stdout)
    return EXIT_FINDINGS if report.findings else EXIT_CLEAN


def _baseline_file(args: argparse.Namespace, settings: Settings) -> Path | None:
    """The baseline to write or compare with: the command line's, else the configured one."""
    if args.write_baseline or args.baseline:
        return Path(args.write_baseline or args.baseline)
    return None if args.no_baseline or settings.baseline is None else Path(settings.baseline)


def _with_baseline(report: Report, baseline: Path, entries: list[Entry], judged: Judged, *, write: bool) -> Report:
    """The report against the baseline; with ``write``, record its findings in it first."""
    folder = baseline.resolve().parent
    comparison = compare(entries, report.findings, folder, judged)
    if not write:
        return report._replace(findings=comparison.new, baselined=comparison.baselined, fixed=comparison.fixed)
    write_baseline(baseline, updated(entries, report.findings, folder, judged))
    dropped = f", {comparison.fixed} fixed dropped" if comparison.fixed else ""
    sys.stderr.write(f"jaxtypes check: wrote {baseline} ({len(report.findings)} findings{dropped})\n")
    return report._replace(findings=[], baselined=len(report.findings))


def _run(job: MypyJob, *, quiet: bool) -> MypyOutcome:
    """Run mypy, showing its progress when standard error is a terminal, unless ``quiet``."""
    if quiet or not sys.stderr.isatty():
        return run_mypy(job, on_file_done=lambda _path: None)
    with Progress(sys.stderr, _source_paths(job)) as progress:
        return run_mypy(job, on_file_done=progress.file_done)


def _source_paths(job: MypyJob) -> list[str]:
    return [source.path for source in job.sources if source.path is not None]


def _report_failure(outcome: MypyOutcome) -> bool:
    """Report a crash, an error that stopped mypy, or a plugin internal error; whether there was one."""
    if outcome.crash:
        sys.stderr.write(f"{outcome.crash}\njaxtypes check: error: mypy crashed (see above)\n")
        return True
    if outcome.stopped:
        _write_errors(outcome.stopped, "mypy stopped before checking everything")
        return True
    internal = [finding for finding in outcome.findings if finding.is_plugin_internal_error]
    if internal:
        _write_errors(internal, "the jaxtypes plugin failed")
    return bool(internal)


def _write_errors(findings: list[Finding], what: str) -> None:
    """Each error with mypy's own notes under it (its advice on how to fix the run)."""
    for finding in findings:
        sys.stderr.write(headline(finding) + "\n")
        for line in finding.explanation():
            sys.stderr.write(f"    {line}\n")
    sys.stderr.write(f"jaxtypes check: error: {what}\n")


def _codes(value: str | None, any_code: bool) -> frozenset[str]:
    """The codes in a comma-separated ``--select``/``--ignore`` value; plugin codes unless ``--all``."""
    codes = frozenset(code.strip() for code in (value or "").split(",") if code.strip())
    unknown = sorted(codes - PLUGIN_CODES) if not any_code else []
    if unknown:
        raise UsageError(f"unknown code {', '.join(unknown)}; the codes are: {', '.join(sorted(PLUGIN_CODES))}")
    return codes


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="jaxtypes", description="Static and runtime safety for jax.jit.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    check = commands.add_parser(
        "check",
        help="report jit-safety bugs (mypy with the jaxtypes plugin, only its findings)",
        description="Run mypy with the jaxtypes plugin on the project's mypy configuration and "
        "report only the plugin's findings. Exit status: 0 none, 1 findings, 2 error.",
    )
    check.add_argument("paths", nargs="*", metavar="PATH", help="files or directories (default: the config's files)")
    check.add_argument("--all", action="store_true", help="also show mypy's other errors")
    check.add_argument("--select", metavar="CODE,...", help="report only these codes")
    check.add_argument("--ignore", metavar="CODE,...", help="do not report these codes")
    check.add_argument("--format", choices=sorted(WRITERS), default="text", help="output format (default: text)")
    baseline = check.add_mutually_exclusive_group()
    baseline.add_argument("--baseline", metavar="FILE", help="report only findings not in FILE (default: configured)")
    baseline.add_argument("--no-baseline", action="store_true", help="ignore the configured baseline")
    baseline.add_argument("--write-baseline", metavar="FILE", help="record the findings in FILE")
    check.add_argument("-q", "--quiet", action="store_true", help="show no progress on a terminal")
    check.add_argument("--explain", metavar="CODE", help="print the reference entry of CODE and exit")
    check.add_argument("--config-file", metavar="FILE", help="mypy configuration file (default: found as mypy does)")
    check.add_argument(
        "--cache-dir", metavar="DIR", help="mypy cache directory (default: the config's, or .mypy_cache)"
    )
    check.add_argument("-n", "--num-workers", dest="workers", metavar="N", help="parallel mypy workers, or 'auto'")
    add_run_parser(commands)
    commands.add_parser(
        "lsp",
        help="a language server over stdio: jit findings in any editor",
        description="Serve jaxtypes' findings to an editor over the Language Server Protocol on "
        "standard input and output (needs jaxtypes[lsp]). See docs/editors.md.",
    )
    return parser


def _lsp() -> int:
    """``jaxtypes lsp``, where pygls is installed."""
    try:
        from jaxtypes._cli.lsp.server import serve
    except ImportError as error:
        sys.stderr.write(f"jaxtypes lsp: error: {error.name} is not installed: pip install 'jaxtypes[lsp]'\n")
        return EXIT_ERROR
    return serve()
