"""Which attributes a flatten function returns, where it selects them by rule rather than by name.

A hand-written flatten function names its aux attributes (``return children, (self.n,)``), or
selects them by a rule that its class's declarations fill in:

- names the class lists: ``for key, val in obj.__dict__.items(): if key in getattr(obj,
  "_static_attrs", [])`` (DESC), ``tuple(self.__dict__.get(n) for n in
  type(self).gather_pytree_aux_fields())`` over each base's ``pytree_aux_fields`` (numpyro);
- dataclass fields whose metadata marks them: ``tuple(getattr(m, f.name) for f in fields(m) if
  not f.metadata.get("pytree_node", True))`` (simple_pytree), or a list filled in a loop over
  ``__dataclass_fields__`` under ``if field_info.metadata.get("static", False)`` (jax_md).

Reading the function gives the rule, written as a token among the attribute names
(``listed``, ``marked``, like ``EVERY_ATTRIBUTE`` for ``vars(self)``); the class registered with
it gives the names (``expand``). Both are read from syntax trees before names are bound. A
class's declarations are read only in classes of its own module, whose syntax tree every mode of
mypy has whole (``method_bodies.parameter_storage`` says why); the functions that declare a field
with literal metadata (``static_field()``) are read where their module is, and recorded with the
base whose flatten function is read there (``field_helpers``); a condition the reader does not
know selects nothing from every field or attribute, so what it cannot read it leaves alone.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from mypy.nodes import (
    AssignmentStmt,
    Block,
    CallExpr,
    ClassDef,
    ComparisonExpr,
    Decorator,
    DictExpr,
    Expression,
    ExpressionStmt,
    ForStmt,
    FuncDef,
    FuncItem,
    GeneratorExpr,
    IfStmt,
    IndexExpr,
    ListComprehension,
    MemberExpr,
    NameExpr,
    OperatorAssignmentStmt,
    OpExpr,
    SetComprehension,
    StarExpr,
    Statement,
    StrExpr,
    TupleExpr,
    TryStmt,
    RefExpr,
    TypeInfo,
    UnaryExpr,
    WhileStmt,
    WithStmt,
)

from mypy_plugin.mypy_internals import get_subexpressions, returned_values
from mypy_plugin.statements import display_values, is_name, present

EVERY_ATTRIBUTE = "__dict__"
"""Stands, among the attributes a flatten function returns as aux data, for the instance's
``__dict__`` (``self.__dict__``, ``vars(self)``): every attribute it holds."""

FIELDS = "{}"
"""Stands for every dataclass field, before a condition on their metadata selects some."""

_LISTED = "["
_MARKED = "{"
_CONVERSIONS = frozenset({"tuple", "list", "set", "frozenset", "sorted"})


def listed(attribute: str) -> str:
    """Stands for the names the class lists in its attribute ``attribute``."""
    return f"{_LISTED}{attribute}]"


def marked(key: str, selected: bool, default: bool) -> str:
    """Stands for the dataclass fields whose metadata's ``key`` is truthy (``selected``) or falsy,
    counting a field without the key as ``default``."""
    return f"{_MARKED}{key}:{int(selected)}{int(default)}}}"


@dataclass
class _Items:
    """What a value is made of: ``attributes`` of the flattened object held as they are,
    ``names`` (strings naming attributes) and ``fields`` (dataclass fields, by name), each a list
    of names or the tokens above."""

    attributes: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    fields: list[str] = field(default_factory=list)

    def __add__(self, other: _Items) -> _Items:
        return _Items([*self.attributes, *other.attributes], [*self.names, *other.names], [*self.fields, *other.fields])


@dataclass
class _Row:
    """The names one loop's variables stand for (a mapping's key and value share one), narrowed
    in place by the conditions around a use."""

    names: list[str]


_Binding = tuple[str, _Row]
"""A loop variable: what one item of the row is (``"name"``, ``"attribute"``, ``"field"``)."""

_Around = tuple[Statement, bool]
"""A loop (``True``) or a condition, with the branch taken, around a binding."""


class _Reader:
    """Reads one flatten function: ``this`` is its flattened object's parameter, ``scopes`` the
    bodies its names may be bound in (its own first, then the functions around it), ``methods``
    those of the class that ``type(self).m()`` reaches."""

    def __init__(
        self, this: str, scopes: Sequence[Block], methods: Mapping[str, FuncDef], called: set[str] | None = None
    ) -> None:
        self.this = this
        self.scopes = list(scopes)
        self.methods = methods
        self.seen: set[str] = set()  # the local names being read, against a binding that reads itself
        self.called = set() if called is None else called  # the methods being read, shared

    def value(self, expr: Expression, env: dict[str, _Binding]) -> _Items:
        """What ``expr`` holds as it is."""
        if isinstance(expr, StrExpr):
            return _Items(names=[expr.value])
        if isinstance(expr, NameExpr) and expr.name in env:
            return _bound(env[expr.name])
        if isinstance(expr, NameExpr):
            return self._local(expr.name, env, iterated=False)
        whole = self._mapping(expr)
        if whole is not None and whole[0] == "attributes":
            return _Items(attributes=whole[1])
        if isinstance(expr, MemberExpr) and self._is_this(expr.expr):
            return _Items(attributes=[expr.name])
        named = self._named_attribute(expr, env)
        if named is not None:
            return _Items(attributes=named)
        items = display_values(expr)
        if items is not None:
            return _union(self.value(item, env) for item in items)
        if isinstance(expr, (GeneratorExpr, ListComprehension, SetComprehension)) or _converted(expr) is not None:
            return self.contents(expr, env)
        return _Items()

    def contents(self, expr: Expression, env: dict[str, _Binding]) -> _Items:
        """What iterating ``expr`` gives."""
        if isinstance(expr, (ListComprehension, SetComprehension)):
            expr = expr.generator
        if isinstance(expr, GeneratorExpr):
            return self._generated(expr, env)
        converted = _converted(expr)
        if converted is not None:
            return self.contents(converted, env)
        items = display_values(expr)
        if items is not None and not isinstance(expr, DictExpr):
            return _union(self.value(item, env) for item in items)
        if isinstance(expr, OpExpr) and expr.op == "+":
            return self.contents(expr.left, env) + self.contents(expr.right, env)
        if isinstance(expr, NameExpr) and expr.name in env:
            return _listed_by(_bound(env[expr.name]))
        if isinstance(expr, NameExpr):
            return self._local(expr.name, env, iterated=True)
        return self._collection(expr, env)

    def _collection(self, expr: Expression, env: dict[str, _Binding]) -> _Items:
        """A collection the flattened object's class or instance gives: its ``__dict__``, its
        dataclass fields, a list it names, what a method of its class returns."""
        method = expr.callee.name if isinstance(expr, CallExpr) and isinstance(expr.callee, MemberExpr) else None
        target = expr.callee.expr if isinstance(expr, CallExpr) and isinstance(expr.callee, MemberExpr) else None
        if target is not None and method in ("items", "keys", "values"):
            whole = self._mapping(target)
            if whole is not None:
                kind, names = whole
                return {
                    "items": _Items(names=names, **{kind: names}),
                    "keys": _Items(names=names),
                    "values": _Items(**{kind: names}),
                }[method]
        whole = self._mapping(expr)
        if whole is not None:
            return _Items(names=whole[1])
        if isinstance(expr, CallExpr) and _called(expr) == "fields" and len(expr.args) == 1:
            return _Items(fields=[FIELDS])
        listing = self._listing(expr)
        if listing is not None:
            return _Items(names=[listed(listing)])
        if target is not None and method is not None and self._is_class_of_this(target):
            return self._method_returns(method)
        return _listed_by(self.value(expr, env))

    def _mapping(self, expr: Expression) -> tuple[str, list[str]] | None:
        """``self.__dict__``, ``vars(self)`` (attributes by name) or any ``X.__dataclass_fields__``
        (fields by name)."""
        if isinstance(expr, MemberExpr) and expr.name == "__dataclass_fields__":
            return "fields", [FIELDS]
        if isinstance(expr, MemberExpr) and expr.name == "__dict__" and self._is_this(expr.expr):
            return "attributes", [EVERY_ATTRIBUTE]
        if isinstance(expr, CallExpr) and _called(expr) == "vars" and len(expr.args) == 1:
            return ("attributes", [EVERY_ATTRIBUTE]) if self._is_this(expr.args[0]) else None
        return None

    def _named_attribute(self, expr: Expression, env: dict[str, _Binding]) -> list[str] | None:
        """``getattr(self, n)``, ``self.__dict__.get(n)``, ``self.__dict__[n]``: the attributes
        ``n`` names."""
        if isinstance(expr, CallExpr) and _called(expr) == "getattr" and len(expr.args) >= 2:
            subject, name, whole = expr.args[0], expr.args[1], False
        elif (
            isinstance(expr, CallExpr)
            and isinstance(expr.callee, MemberExpr)
            and expr.callee.name == "get"
            and expr.args
        ):
            subject, name, whole = expr.callee.expr, expr.args[0], True
        elif isinstance(expr, IndexExpr):
            subject, name, whole = expr.base, expr.index, True
        else:
            return None
        if whole:
            if not (isinstance(subject, MemberExpr) and subject.name == "__dict__" and self._is_this(subject.expr)):
                return None
        elif not self._is_this(subject):
            return None
        if isinstance(name, StrExpr):
            return [name.value]
        if isinstance(name, MemberExpr) and name.name == "name" and isinstance(name.expr, NameExpr):
            binding = env.get(name.expr.name)
            return list(binding[1].names) if binding is not None and binding[0] == "field" else []
        if isinstance(name, NameExpr) and name.name in env:
            return list(env[name.name][1].names) if env[name.name][0] == "name" else []
        return []

    def _generated(self, expr: GeneratorExpr, env: dict[str, _Binding]) -> _Items:
        inner = dict(env)
        for index, sequence, conditions in zip(expr.indices, expr.sequences, expr.condlists):
            inner.update(_bind(index, self.contents(sequence, inner)))
            for condition in conditions:
                self._narrow(condition, True, inner)
        return self.value(expr.left_expr, inner)

    def _local(self, name: str, env: dict[str, _Binding], iterated: bool) -> _Items:
        """What a local name holds (or, ``iterated``, gives when iterated), over every binding in
        the innermost scope that binds it: ``n = ...``, ``n += ...``, ``n.append(...)``,
        ``n.extend(...)``, each under the loops and conditions around it."""
        if name in self.seen:
            return _Items()
        self.seen.add(name)
        try:
            for scope in self.scopes:
                found = list(_bindings(scope.body, name))
                if found:
                    return _union(self._under(value, added, around, env, iterated) for value, added, around in found)
            return _Items()
        finally:
            self.seen.discard(name)

    def _under(
        self, value: Expression, added: bool, around: list[_Around], env: dict[str, _Binding], iterated: bool
    ) -> _Items:
        """``value`` read where ``around`` (loops, and conditions with the branch taken) encloses
        it; ``added``: it is one item added to a collection, held and iterated alike."""
        inner = dict(env)
        for stmt, branch in around:
            if isinstance(stmt, ForStmt):
                inner.update(_bind(stmt.index, self.contents(stmt.expr, inner)))
            elif isinstance(stmt, IfStmt):
                self._narrow(stmt.expr[0], branch, inner)
        return self.contents(value, inner) if iterated and not added else self.value(value, inner)

    def _narrow(self, condition: Expression, holds: bool, env: dict[str, _Binding]) -> None:
        """Narrow the rows ``condition`` (where it ``holds``, or not) tests: ``key in listing``,
        a field's metadata (``f.metadata.get("static", False)``, maybe through a local name);
        another condition leaves a row of names it only narrows, and empties one of every
        attribute or field."""
        if isinstance(condition, UnaryExpr) and condition.op == "not":
            self._narrow(condition.expr, not holds, env)
            return
        if isinstance(condition, NameExpr) and condition.name not in env:
            value = _assigned(self.scopes, condition.name)
            if value is not None:
                self._narrow(value, holds, env)
                return
        test = _metadata_test(condition)
        if test is not None:
            variable, key, truthy, default = test
            binding = env.get(variable)
            if binding is not None and binding[0] == "field" and FIELDS in binding[1].names:
                binding[1].names[:] = [marked(key, truthy == holds, default)]
                return
        if isinstance(condition, ComparisonExpr) and condition.operators == ["in"] and holds:
            left = condition.operands[0]
            if isinstance(left, NameExpr) and left.name in env:
                row = env[left.name][1]
                row.names[:] = self.contents(condition.operands[1], env).names
                return
        tested = {node.name for node in get_subexpressions(condition) if isinstance(node, NameExpr)}
        for variable, (_, row) in env.items():
            if variable in tested and any(name in (EVERY_ATTRIBUTE, FIELDS) for name in row.names):
                row.names[:] = []

    def _method_returns(self, method: str) -> _Items:
        """What a method of the flattened object's class returns, read in its body."""
        function = self.methods.get(method)
        if function is None or not function.arguments or method in self.called:
            return _Items()
        self.called.add(method)
        reader = _Reader(function.arguments[0].variable.name, [function.body], self.methods, self.called)
        try:
            return _union(reader.contents(value, {}) for value in returned_values(function))
        finally:
            self.called.discard(method)

    def _listing(self, expr: Expression) -> str | None:
        """The class attribute a listing of names is read from: ``getattr(obj, "names", [])``,
        ``type(self).names``, ``base.__dict__.get("names", ())``."""
        if isinstance(expr, CallExpr) and _called(expr) == "getattr" and len(expr.args) >= 2:
            return expr.args[1].value if isinstance(expr.args[1], StrExpr) else None
        if isinstance(expr, CallExpr) and isinstance(expr.callee, MemberExpr) and expr.callee.name == "get":
            holder = expr.callee.expr
            if isinstance(holder, MemberExpr) and holder.name == "__dict__" and expr.args:
                return expr.args[0].value if isinstance(expr.args[0], StrExpr) else None
        if isinstance(expr, MemberExpr) and self._is_class_of_this(expr.expr):
            return expr.name
        return None

    def _is_this(self, expr: Expression) -> bool:
        return isinstance(expr, NameExpr) and expr.name == self.this

    def _is_class_of_this(self, expr: Expression) -> bool:
        """``self``'s class: ``type(self)``, ``self.__class__``, or ``self`` itself (the first
        parameter of a class method is the class)."""
        if isinstance(expr, CallExpr) and _called(expr) == "type" and len(expr.args) == 1:
            return self._is_this(expr.args[0])
        if isinstance(expr, MemberExpr) and expr.name == "__class__":
            return self._is_this(expr.expr)
        return self._is_this(expr)


def flatten_aux(
    flatten: FuncItem, outer: Sequence[Block] = (), methods: Mapping[str, FuncDef] | None = None
) -> list[str]:
    """The attributes of the flattened object that ``flatten`` returns in its aux data, in order,
    with the tokens of the rules it selects others by; ``outer``: the bodies of the functions it
    is defined in (a decorator's, ``__init_subclass__``'s), whose names it may read; ``methods``:
    its class's, which it may call through ``type(self)``."""
    if not flatten.arguments:
        return []
    reader = _Reader(flatten.arguments[0].variable.name, [flatten.body, *outer], methods or {})
    found: list[str] = []
    for returned in returned_values(flatten):
        if isinstance(returned, TupleExpr) and len(returned.items) == 2:
            found += reader.value(returned.items[1], {}).attributes
    return list(dict.fromkeys(found))


def held_attributes(function: FuncItem, expr: Expression) -> list[str]:
    """The attributes of ``function``'s first parameter that ``expr`` holds as they are."""
    if not function.arguments:
        return []
    reader = _Reader(function.arguments[0].variable.name, [function.body], {})
    return list(dict.fromkeys(reader.value(expr, {}).attributes))


def expand(
    info: TypeInfo, names: Sequence[str], constructed: Sequence[str], helpers: Mapping[str, Mapping[str, bool]]
) -> list[str]:
    """The attributes ``names`` stand for in ``info``: its tokens replaced by what the classes of
    ``info``'s module in its MRO declare; ``constructed``: every attribute construction gives an
    instance, for ``EVERY_ATTRIBUTE`` and every field; ``helpers``: the functions that declare a
    field with literal metadata (``field_helpers``), by full name."""
    bases = [base for base in info.mro if base.module_name == info.module_name]
    found: list[str] = []
    for name in names:
        if name in (EVERY_ATTRIBUTE, FIELDS):
            found += constructed
        elif name.startswith(_LISTED):
            found += [item for base in bases for item in _listed_names(base.defn, name[1:-1])]
        elif name.startswith(_MARKED):
            key, _, flags = name[1:-1].rpartition(":")
            selected, default = flags[0] == "1", flags[1] == "1"
            found += [field for base in bases for field in _marked_fields(base, key, selected, default, helpers)]
        else:
            found.append(name)
    return list(dict.fromkeys(found))


def field_helpers(defs: Sequence[Statement], module: str) -> dict[str, dict[str, bool]]:
    """The functions among ``defs`` (a module's statements) that return a dataclass field with
    literal metadata (``def static_field(): return field(metadata={"static": True})``), by full
    name, with that metadata: what a field declared with one of them carries, read where the
    function's body is (another module's may come from mypy's cache, without it)."""
    found = {}
    for node in defs:
        function = node.func if isinstance(node, Decorator) else node
        if not isinstance(function, FuncDef):
            continue
        given = [_metadata(value) for value in returned_values(function)]
        if given and given[0] and all(metadata == given[0] for metadata in given):
            found[f"{module}.{function.name}"] = given[0]
    return found


def _listed_names(defn: ClassDef, attribute: str) -> list[str]:
    """The strings the class body assigns ``attribute``, in displays (``("a", "b")``,
    ``Base.names + ["c"]``)."""
    return [
        item.value
        for stmt in defn.defs.body
        if isinstance(stmt, AssignmentStmt) and any(is_name(lvalue, attribute) for lvalue in stmt.lvalues)
        for item in _strings(stmt.rvalue)
    ]


def _strings(expr: Expression) -> Iterator[StrExpr]:
    if isinstance(expr, OpExpr) and expr.op == "+":
        yield from _strings(expr.left)
        yield from _strings(expr.right)
    for item in display_values(expr) or []:
        if isinstance(item, StrExpr):
            yield item
        elif isinstance(item, StarExpr):
            yield from _strings(item.expr)


def _marked_fields(
    info: TypeInfo, key: str, selected: bool, default: bool, helpers: Mapping[str, Mapping[str, bool]]
) -> list[str]:
    """The fields the class body of ``info`` declares whose metadata's ``key`` (read in the
    ``field(metadata=...)`` call, or in ``helpers`` for the function called) is truthy as
    ``selected`` says, ``default`` where it does not say."""
    found = []
    for stmt in info.defn.defs.body:
        if not (isinstance(stmt, AssignmentStmt) and stmt.type is not None and len(stmt.lvalues) == 1):
            continue
        lvalue, rvalue = stmt.lvalues[0], stmt.rvalue
        metadata = _metadata(rvalue)
        if not metadata and isinstance(rvalue, CallExpr) and isinstance(rvalue.callee, RefExpr):
            metadata = dict(helpers.get(rvalue.callee.fullname, {}))
        if isinstance(lvalue, NameExpr) and metadata.get(key, default) == selected:
            found.append(lvalue.name)
    return found


def _metadata(expr: Expression) -> dict[str, bool]:
    """The literal keys of the metadata ``expr``, a call declaring a dataclass field, gives it:
    ``metadata={"static": True}`` or ``metadata=dict(static=True)``, each value's truth."""
    if not isinstance(expr, CallExpr):
        return {}
    metadata = dict(zip(expr.arg_names, expr.args)).get("metadata")
    if isinstance(metadata, DictExpr):
        items = [(key.value, value) for key, value in metadata.items if isinstance(key, StrExpr)]
    elif isinstance(metadata, CallExpr) and _called(metadata) == "dict":
        items = [(name, value) for name, value in zip(metadata.arg_names, metadata.args) if name is not None]
    else:
        return {}
    return {key: truth for key, value in items if (truth := _truthy(value)) is not None}


def _truthy(expr: Expression) -> bool | None:
    if isinstance(expr, NameExpr) and expr.name in ("True", "False", "None"):
        return expr.name == "True"
    if isinstance(expr, StrExpr):
        return bool(expr.value)
    return None


def _metadata_test(condition: Expression) -> tuple[str, str, bool, bool] | None:
    """``f.metadata.get(key, default)`` (truthy), ``f.metadata[key]`` or ``key in f.metadata``:
    the field's variable, the key, whether the test wants it truthy, the default."""
    if isinstance(condition, CallExpr) and isinstance(condition.callee, MemberExpr) and condition.callee.name == "get":
        holder, args = condition.callee.expr, condition.args
        if _is_metadata(holder) and args and isinstance(args[0], StrExpr):
            default = _truthy(args[1]) if len(args) > 1 else False
            if default is not None:
                return holder.expr.name, args[0].value, True, default  # type: ignore[attr-defined]
    if isinstance(condition, IndexExpr) and _is_metadata(condition.base) and isinstance(condition.index, StrExpr):
        return condition.base.expr.name, condition.index.value, True, False  # type: ignore[attr-defined]
    return None


def _is_metadata(expr: Expression) -> bool:
    return isinstance(expr, MemberExpr) and expr.name == "metadata" and isinstance(expr.expr, NameExpr)


def _bound(binding: _Binding) -> _Items:
    kind, row = binding
    return _Items(**{{"name": "names", "attribute": "attributes", "field": "fields"}[kind]: row.names})


def _listed_by(items: _Items) -> _Items:
    """What iterating values gives: the names held (strings stay names), and, for an attribute
    iterated (``for n in self.names``), the names the class lists in it."""
    return _Items(names=[*items.names, *(listed(name) for name in items.attributes if name != EVERY_ATTRIBUTE)])


def _bind(index: Expression, items: _Items) -> dict[str, _Binding]:
    """The loop variables ``index`` binds to one row of ``items``: a pair ``key, value`` of a
    mapping's items, else one name or field."""
    row = _Row(list(items.names or items.fields or items.attributes))
    if isinstance(index, TupleExpr) and len(index.items) == 2:
        key, value = index.items
        kind = "field" if items.fields else "attribute"
        return {
            **({key.name: ("name", row)} if isinstance(key, NameExpr) else {}),
            **({value.name: (kind, row)} if isinstance(value, NameExpr) else {}),
        }
    if isinstance(index, NameExpr):
        return {index.name: ("field" if items.fields and not items.names else "name", row)}
    return {}


def _bindings(
    body: Sequence[Statement], name: str, around: tuple[_Around, ...] = ()
) -> Iterator[tuple[Expression, bool, list[_Around]]]:
    """Each value ``name`` is bound to in ``body`` (not nested functions), whether it is one
    item added to it, and the loops and conditions (with the branch) around it."""
    for stmt in body:
        if isinstance(stmt, AssignmentStmt) and any(is_name(lvalue, name) for lvalue in stmt.lvalues):
            yield stmt.rvalue, False, list(around)
        elif isinstance(stmt, OperatorAssignmentStmt) and is_name(stmt.lvalue, name) and stmt.op == "+":
            yield stmt.rvalue, False, list(around)
        elif isinstance(stmt, ExpressionStmt) and isinstance(stmt.expr, CallExpr):
            callee = stmt.expr.callee
            if isinstance(callee, MemberExpr) and is_name(callee.expr, name) and len(stmt.expr.args) == 1:
                if callee.name in ("append", "add", "extend"):
                    yield stmt.expr.args[0], callee.name != "extend", list(around)
        elif isinstance(stmt, ForStmt):
            yield from _bindings(stmt.body.body, name, (*around, (stmt, True)))
        elif isinstance(stmt, IfStmt):
            yield from _bindings(stmt.body[0].body, name, (*around, (stmt, True)))
            if stmt.else_body is not None:
                yield from _bindings(stmt.else_body.body, name, (*around, (stmt, False)))
        elif isinstance(stmt, (WhileStmt, WithStmt)):
            yield from _bindings(stmt.body.body, name, around)
        elif isinstance(stmt, TryStmt):
            for block in [stmt.body, *stmt.handlers, *present([stmt.else_body, stmt.finally_body])]:
                yield from _bindings(block.body, name, around)


def _assigned(scopes: Sequence[Block], name: str) -> Expression | None:
    """The one value a local name is assigned, in the innermost scope that assigns it."""
    for scope in scopes:
        values = [value for value, each, _ in _bindings(scope.body, name) if not each]
        if values:
            return values[0] if len(values) == 1 else None
    return None


def _called(call: CallExpr) -> str | None:
    """The name a call's callee ends in (``getattr``, ``dataclasses.fields``)."""
    callee = call.callee
    return callee.name if isinstance(callee, (NameExpr, MemberExpr)) else None


def _converted(expr: Expression) -> Expression | None:
    """The argument of ``tuple(...)``, ``list(...)``, ``sorted(...)`` and their kin."""
    if isinstance(expr, CallExpr) and isinstance(expr.callee, NameExpr) and len(expr.args) == 1:
        return expr.args[0] if expr.callee.name in _CONVERSIONS else None
    return None


def _union(parts: Iterator[_Items] | list[_Items]) -> _Items:
    total = _Items()
    for part in parts:
        total = total + part
    return total
