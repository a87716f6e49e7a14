"""The ``jaxtypes`` command: ``jaxtypes check [PATHS...]``, the jit-safety linter.

Exit status: 0 no findings, 1 findings, 2 a usage or configuration error, or mypy stopped or
crashed (never 0 when nothing was really checked).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from jaxtypes.check import UsageError
from jaxtypes.check.explain import explain
from jaxtypes.check.findings import PLUGIN_CODES, Finding, Selection, select
from jaxtypes.check.formats import WRITERS, Report, headline
from jaxtypes.check.mypy_run import MypyOutcome, prepare_mypy, run_mypy
from jaxtypes.settings import SettingsError, read_settings

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); return the exit status."""
    args = _parser().parse_args(argv)
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
    selection = Selection(
        everything=args.all,
        only=_codes(args.select, args.all) if args.select is not None else frozenset(settings.select),
        ignore=_codes(args.ignore, args.all) if args.ignore is not None else frozenset(settings.ignore),
    )
    outcome = run_mypy(job)
    if _report_failure(outcome):
        return EXIT_ERROR
    shown = select(outcome.findings, selection)
    errors = [finding for finding in outcome.findings if finding.severity == "error"]
    hidden = sum(1 for finding in errors if finding not in shown and not finding.from_plugin)
    WRITERS[args.format](Report(shown, outcome.files_checked, hidden), sys.stdout)
    return EXIT_FINDINGS if shown else EXIT_CLEAN


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
    for finding in findings:
        sys.stderr.write(headline(finding) + "\n")
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
    check.add_argument("--explain", metavar="CODE", help="print the reference entry of CODE and exit")
    check.add_argument("--config-file", metavar="FILE", help="mypy configuration file (default: found as mypy does)")
    check.add_argument("--cache-dir", metavar="DIR", help="mypy cache directory (default: the config's, or .mypy_cache)")
    check.add_argument("-n", "--num-workers", dest="workers", metavar="N", help="parallel mypy workers, or 'auto'")
    return parser
