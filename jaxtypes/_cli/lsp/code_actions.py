"""The fixes an editor can apply to a finding, where the fix is mechanical and safe.

Each is read from the document as the editor holds it (its syntax tree: an annotation, a
default, a decorator) and changes nothing else:

- a list or set in a static field's annotation or default: a tuple or frozenset;
- a collection interface declared for a static parameter (``Sequence[int]``): ``tuple[int, ...]``;
- a dataclass that is not frozen, defined in the same file: ``frozen=True``;
- ``# type: ignore[code]`` on the finding's line;
- the finding added to the project's baseline (a command the server runs).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator

from lsprotocol import types

ADD_TO_BASELINE = "jaxtypes.addToBaseline"

_CONTAINERS = {"list": "tuple", "List": "tuple", "set": "frozenset", "Set": "frozenset"}
_INTERFACES = {
    "Sequence": "tuple",
    "MutableSequence": "tuple",
    "Iterable": "tuple",
    "Collection": "tuple",
    "AbstractSet": "frozenset",
    "MutableSet": "frozenset",
}
_PARAMETER = re.compile(r"^parameter '(\w+)' of ")
_NOT_FROZEN = re.compile(r"is typed (?:Optional\[)?(\w+)\]?, a dataclass that is not frozen")


def code_actions(diagnostic: types.Diagnostic, source: str, uri: str, baseline: bool) -> list[types.CodeAction]:
    """The fixes for ``diagnostic`` in the document ``source`` at ``uri``; with ``baseline``
    (the project has one), adding the finding to it."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        tree = None
    line = diagnostic.range.start.line + 1
    lines = source.splitlines()
    edits: list[tuple[str, list[types.TextEdit]]] = []
    if tree is not None and diagnostic.code == "static-unhashable":
        edits += _hashable_container(tree, lines, line) + _hashable_parameter(tree, lines, line, diagnostic.message)
    if tree is not None and diagnostic.code == "static-not-frozen":
        edits += _frozen(tree, lines, diagnostic.message)
    edits += _ignore(lines, line, str(diagnostic.code))
    actions = [
        types.CodeAction(
            title=title,
            kind=types.CodeActionKind.QuickFix,
            diagnostics=[diagnostic],
            edit=types.WorkspaceEdit(changes={uri: changes}),
            is_preferred=index == 0,
        )
        for index, (title, changes) in enumerate(edits)
    ]
    if baseline:
        command = types.Command(
            title="Add this finding to the jaxtypes baseline",
            command=ADD_TO_BASELINE,
            arguments=[uri, line, diagnostic.code],
        )
        kind = types.CodeActionKind.QuickFix
        actions.append(types.CodeAction(title=command.title, kind=kind, diagnostics=[diagnostic], command=command))
    return actions


def _hashable_container(tree: ast.Module, lines: list[str], line: int) -> list[tuple[str, list[types.TextEdit]]]:
    """A field annotated ``list[...]`` or ``set[...]`` on ``line``: a tuple or frozenset, and
    its literal default with it."""
    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign) and node.lineno == line:
            replaced = _replaced_container(node.annotation)
            if replaced is None:
                return []
            name, text = replaced
            changes = [types.TextEdit(_range(lines, node.annotation), text)]
            if isinstance(node.value, (ast.List, ast.Set)):
                changes.append(types.TextEdit(_range(lines, node.value), _literal(lines, node.value)))
            return [(f"Use {name} instead ({text})", changes)]
    return []


def _hashable_parameter(
    tree: ast.Module, lines: list[str], line: int, message: str
) -> list[tuple[str, list[types.TextEdit]]]:
    """A static parameter named in ``message``, of the function decorated or defined at
    ``line``, declared a collection interface: a tuple (or frozenset) of its items."""
    match = _PARAMETER.match(message)
    if match is None:
        return []
    for function in _functions_at(tree, line):
        for argument in [*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs]:
            if argument.arg == match[1] and argument.annotation is not None:
                text = _replaced_interface(lines, argument.annotation)
                if text is not None:
                    return [(f"Declare {match[1]}: {text}", [types.TextEdit(_range(lines, argument.annotation), text)])]
    return []


def _frozen(tree: ast.Module, lines: list[str], message: str) -> list[tuple[str, list[types.TextEdit]]]:
    """The dataclass the finding names, defined in this file: ``frozen=True`` in its decorator."""
    match = _NOT_FROZEN.search(message)
    for node in ast.walk(tree) if match else ():
        if isinstance(node, ast.ClassDef) and node.name == match[1]:
            for decorator in node.decorator_list:
                edit = _frozen_decorator(lines, decorator)
                if edit is not None:
                    return [(f"Make {node.name} frozen", [edit])]
    return []


def _frozen_decorator(lines: list[str], decorator: ast.expr) -> types.TextEdit | None:
    if _name_of(decorator.func if isinstance(decorator, ast.Call) else decorator) != "dataclass":
        return None
    if not isinstance(decorator, ast.Call):
        return types.TextEdit(_range(lines, decorator), f"{_segment(lines, decorator)}(frozen=True)")
    for keyword in decorator.keywords:
        if keyword.arg == "frozen":
            return types.TextEdit(_range(lines, keyword.value), "True")
    end = _position(lines, decorator.end_lineno or decorator.lineno, (decorator.end_col_offset or 1) - 1)
    separator = ", " if decorator.args or decorator.keywords else ""
    return types.TextEdit(types.Range(end, end), f"{separator}frozen=True")


def _ignore(lines: list[str], line: int, code: str) -> list[tuple[str, list[types.TextEdit]]]:
    """``# type: ignore[code]`` at the end of the code of ``line``, or ``code`` added to the one
    there (before any other comment, where mypy looks for it)."""
    if not 0 < line <= len(lines):
        return []
    text = lines[line - 1]
    comment = _comment_start(text)
    existing = re.compile(r"#\s*type:\s*ignore(\[([^\]]*)\])?").match(text, comment) if comment is not None else None
    title = f"Ignore this {code} finding on this line"
    if existing is not None:
        if existing[1] is None or code in [part.strip() for part in existing[2].split(",")]:
            return []
        end = types.Position(line - 1, existing.end(2))
        return [(title, [types.TextEdit(types.Range(end, end), f", {code}")])]
    at = len(text.rstrip()) if comment is None else comment
    insertion = f"  # type: ignore[{code}]" if comment is None else f"# type: ignore[{code}]  "
    start = types.Position(line - 1, at)
    return [(title, [types.TextEdit(types.Range(start, start), insertion)])]


def _comment_start(text: str) -> int | None:
    """Where the comment of a line of code starts, if it has one."""
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                return token.start[1]
    except (tokenize.TokenError, IndentationError, SyntaxError):  # a line of a longer statement
        return text.find("#") if "#" in text else None
    return None


def _replaced_container(annotation: ast.expr) -> tuple[str, str] | None:
    """``list[int]`` as ``("tuple", "tuple[int, ...]")``, ``set[str]`` as frozenset; None otherwise."""
    hashable = _CONTAINERS.get(_name_of(annotation.value if isinstance(annotation, ast.Subscript) else annotation))
    if hashable is None:
        return None
    if not isinstance(annotation, ast.Subscript):
        return hashable, hashable
    item = ast.unparse(annotation.slice)
    return hashable, f"{hashable}[{item}, ...]" if hashable == "tuple" else f"{hashable}[{item}]"


def _replaced_interface(lines: list[str], annotation: ast.expr) -> str | None:
    """``Sequence[int]`` as ``tuple[int, ...]``, ``AbstractSet[str]`` as ``frozenset[str]``."""
    if not isinstance(annotation, ast.Subscript):
        return None
    hashable = _INTERFACES.get(_name_of(annotation.value))
    if hashable is None:
        return None
    item = _segment(lines, annotation.slice)
    return f"tuple[{item}, ...]" if hashable == "tuple" else f"{hashable}[{item}]"


def _name_of(node: ast.expr) -> str:
    """The name an expression ends in (``dataclass`` of ``dataclasses.dataclass``), or "" for none."""
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""


def _literal(lines: list[str], value: ast.List | ast.Set) -> str:
    items = ", ".join(_segment(lines, item) for item in value.elts)
    if isinstance(value, ast.Set):
        return f"frozenset({{{items}}})"
    return f"({items},)" if len(value.elts) == 1 else f"({items})"


def _functions_at(tree: ast.Module, line: int) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The functions defined or decorated at ``line``."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno, *(decorator.lineno for decorator in node.decorator_list)])
            if first <= line <= node.lineno:
                yield node


def _segment(lines: list[str], node: ast.expr) -> str:
    source = "\n".join(lines) + "\n"
    return ast.get_source_segment(source, node) or ast.unparse(node)


def _range(lines: list[str], node: ast.expr) -> types.Range:
    return types.Range(
        _position(lines, node.lineno, node.col_offset),
        _position(lines, node.end_lineno or node.lineno, node.end_col_offset or node.col_offset),
    )


def _position(lines: list[str], line: int, byte_offset: int) -> types.Position:
    """An LSP position from ``ast``'s 1-based line and UTF-8 byte offset."""
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return types.Position(line - 1, len(text.encode("utf-8")[:byte_offset].decode("utf-8", errors="ignore")))
