"""``jaxtypes run [options] script.py [args...]`` and ``jaxtypes run -m module [args...]``: the
program runs under the jit sanitizer, as under ``python``; at exit its findings are printed in
the formats ``jaxtypes check`` has.

Exit status: the program's own when it failed, else 1 when there are findings (so CI fails),
else 0. The findings go to standard error (``--output FILE`` writes them to a file), so they
never mix with what the program prints.
"""

from __future__ import annotations

import argparse
import os
import runpy
import sys
import traceback
from typing import Any

from jaxtypes._cli.check.findings import Finding, Report
from jaxtypes._cli.check.formats import WRITERS

EXIT_FINDINGS = 1


def add_parser(commands: Any) -> None:
    run = commands.add_parser(
        "run",
        help="run a Python program under the jit sanitizer (stale results, needless compiles)",
        description="Run a script or module with every jax.jit watched; print what the sanitizer "
        "found at exit. Exit status: the program's own if it failed, else 1 with findings, else 0.",
    )
    run.add_argument("--format", choices=sorted(WRITERS), default="text", help="output format (default: text)")
    run.add_argument("--output", metavar="FILE", help="write the findings to FILE (default: standard error)")
    run.add_argument(
        "--strict", action="store_true", help="stop at the first stale call, before its result is returned"
    )
    run.add_argument("-m", dest="module", metavar="MODULE", help="run a module, as python -m does")
    run.add_argument("program", nargs=argparse.REMAINDER, metavar="script.py [args...]")


def run(args: argparse.Namespace) -> int:
    """Run the program under the sanitizer; print the findings; return the exit status."""
    from jaxtypes._observe.sanitizer import sanitize

    if args.module is None and not args.program:
        sys.stderr.write("jaxtypes run: error: give a script, or -m and a module\n")
        return 2
    with sanitize(strict=args.strict) as found:
        status = _run_program(args.module, args.program)
    findings = [_as_finding(finding) for finding in found.findings]
    report = Report(sorted(findings, key=lambda f: (f.path, f.line, f.code)), len(found.files), 0)
    if args.output is not None:
        with open(args.output, "w", encoding="utf-8") as out:
            WRITERS[args.format](report, out)
    else:
        sys.stdout.flush()
        WRITERS[args.format](report, sys.stderr)
    return status if status != 0 else (EXIT_FINDINGS if findings else 0)


def _run_program(module: str | None, program: list[str]) -> int:
    """Run the program as ``python`` would, and return its exit status."""
    saved = sys.argv[:], sys.path[:]
    try:
        if module is not None:
            sys.argv = [module, *program]
            sys.path.insert(0, os.getcwd())
            runpy.run_module(module, run_name="__main__", alter_sys=True)
        else:
            sys.argv = list(program)
            sys.path.insert(0, os.path.dirname(os.path.abspath(program[0])))
            runpy.run_path(program[0], run_name="__main__")
    except SystemExit as exit:
        code = exit.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except BaseException:  # the program's own failure: shown as python shows it
        traceback.print_exc()
        return 1
    finally:
        sys.argv, sys.path[:] = saved[0], saved[1]
    return 0


def _as_finding(found: Any) -> Finding:
    """A sanitizer finding in ``jaxtypes check``'s terms: its place, then the related places
    and further lines as notes."""
    notes = [f"{label}: {where}" for label, where in found.related] + [line.strip() for line in found.notes]
    message = found.message
    line = max(found.place.line, 1)
    return Finding(
        found.place.path,
        line,
        1,
        line,
        1,
        message.code,
        message.headline,
        "\n".join(notes) or None,
        "error",
        message.why,
        message.fix,
    )
