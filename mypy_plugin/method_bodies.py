"""What hand-written methods do with an instance's attributes, read from their syntax trees.

- Flattening: a class registered with ``register_pytree_node(Cls, flatten, unflatten)`` (or
  ``register_pytree_with_keys``), or decorated ``register_pytree_node_class`` with a
  ``tree_flatten`` method, says in its flatten function which attributes are children (traced)
  and which are aux data (pytree metadata: compared with ``==`` on every jit call).
  The aux attributes are then static fields like any library's (``library_fields``), judged by
  their declared types and, where an attribute has none, by what constructors are given. Read
  from ``return children, aux`` (``flatten_selection``): attributes of the first parameter
  (``self.x``, ``node.x``), in displays, a dict's values (``dict(w=self.w)``: a property, by its
  name, as the constructor parameter of that name fills it), local names, or selected by a rule
  the class fills in (names it lists, fields its metadata marks).
- Hashing: the attributes a ``__hash__`` hashes as they are (``hash((self.x, self.mul))``);
  one holding an array makes hashing fail, while ``hash(tuple(self.x.tolist()))`` hashes a
  value made from it (``hashing``).
- Construction: the values ``__init__`` and ``__post_init__`` (and the methods only they call)
  assign an attribute (``self.len = jnp.sqrt(...)``, ``object.__setattr__(self, "len", ...)``),
  which a static field declared ``float`` holds all the same (``value_origins``).
- Reading: the attributes a jitted method reads through ``self`` (``self_reads``): a change to
  any other attribute cannot make its compiled code stale (``jit_evidence``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from typing import NamedTuple

from mypy.nodes import (
    AssignmentStmt,
    Block,
    CallExpr,
    ClassDef,
    ConditionalExpr,
    Decorator,
    DictExpr,
    Expression,
    FuncBase,
    FuncDef,
    FuncItem,
    ListComprehension,
    ListExpr,
    NOT_ABSTRACT,
    MemberExpr,
    MypyFile,
    Node,
    NameExpr,
    OpExpr,
    OverloadedFuncDef,
    RaiseStmt,
    SetComprehension,
    SetExpr,
    Statement,
    StrExpr,
    SuperExpr,
    TupleExpr,
    TypeInfo,
    Var,
)
from mypy.plugin import ClassDefContext
from mypy.types import CallableType, Instance, TypeVarType, get_proper_type

from mypy_plugin.flatten_selection import held_attributes
from mypy_plugin.markers import written
from mypy_plugin.metadata import HeldMethods, MethodReads
from mypy_plugin.mypy_internals import checked_module, defining_class, get_subexpressions, returned_values
from mypy_plugin.statements import calls, display_values, is_name, parameter_at, placed, walk

CONSTRUCTION = frozenset({"__init__", "__post_init__", "__new__", "__setstate__"})
"""Methods that set attributes while an instance is being made, not after."""

FLATTEN_METHODS = ("tree_flatten_with_keys", "tree_flatten")
"""The methods ``register_pytree_with_keys_class`` and ``register_pytree_node_class`` call, the
first one a class defines taken."""


def own_flatten(defn: ClassDef) -> FuncDef | None:
    """The flatten method the class body defines (``FLATTEN_METHODS``)."""
    methods = {method.name: method for method in instance_methods(defn)}
    return next((methods[name] for name in FLATTEN_METHODS if name in methods), None)


def derived_registration(defn: ClassDef, registrations: Iterable[str]) -> tuple[CallExpr, FuncDef] | None:
    """The call by which the class's own ``__init_subclass__`` or ``__new__`` gives the class it
    runs for (its first parameter) to one of ``registrations`` (``registration_calls``), with that
    method: every class derived from it is then a pytree (distrax's ``Jittable``, numpyro's
    ``Distribution``)."""
    for method in class_functions(defn):
        if method.name not in ("__init_subclass__", "__new__") or not method.arguments:
            continue
        this = method.arguments[0].variable.name
        for call in registration_calls(method, registrations):
            if is_name(call.args[0], this):
                return call, method
    return None


def registration_calls(function: FuncDef, registrations: Iterable[str]) -> Iterator[CallExpr]:
    """The calls in ``function``'s body of one of ``registrations``, recognised by the last part of
    their full names (a function body's names may not be bound yet)."""
    short = {name.rpartition(".")[2] for name in registrations}
    for call in calls([function.body]):
        callee = call.callee
        if isinstance(callee, (NameExpr, MemberExpr)) and callee.name in short and call.args:
            yield call


def registered_flatten(call: CallExpr, around: FuncDef, methods: Mapping[str, FuncDef]) -> FuncDef | None:
    """The flatten function a ``register_pytree_node(cls, flatten, ...)`` call in ``around``
    gives: one ``around`` defines (simple_pytree's ``__init_subclass__``, jax_md's ``dataclass``
    decorator), one of the module, or a method of the class (``cls.tree_flatten``, from
    ``methods``)."""
    given = call.args[1] if len(call.args) > 1 else None
    if isinstance(given, MemberExpr) and isinstance(given.expr, NameExpr):
        return methods.get(given.name)
    if not isinstance(given, NameExpr):
        return None
    nested = [node for node, *_ in walk([around.body], definitions=True) if isinstance(node, FuncDef)]
    found = next((node for node in nested if node.name == given.name), None)
    return found or definition(given.node)


def constructed_attributes(info: TypeInfo) -> list[str]:
    """The attributes an instance of ``info`` holds by its construction: the fields its class
    bodies annotate and what their construction methods assign, of the classes of its MRO in its
    module (``parameter_storage`` says why only those)."""
    found: list[str] = []
    for base in [base for base in info.mro if base.module_name == info.module_name]:
        found += [
            stmt.lvalues[0].name
            for stmt in base.defn.defs.body
            if isinstance(stmt, AssignmentStmt) and stmt.type is not None and isinstance(stmt.lvalues[0], NameExpr)
        ]
        found += [name for name, _ in _construction_assignments(base.defn)]
    return list(dict.fromkeys(found))


def hashed_attributes(hash_method: FuncItem) -> list[str]:
    """The attributes of ``self`` that ``hash_method`` (a ``__hash__``) gives ``hash`` as they
    are, alone or in a tuple or list. Read before names are bound (a method's body does not
    survive mypy's cache), so ``hash`` is recognised by its name."""
    found: list[str] = []
    for returned in returned_values(hash_method):
        if isinstance(returned, CallExpr) and isinstance(returned.callee, NameExpr) and returned.args:
            if returned.callee.name == "hash":
                found += [name for name in held_attributes(hash_method, returned.args[0]) if name not in found]
    return found


def assigned_values(defn: ClassDef, attribute: str) -> list[Expression]:
    """The values the construction methods of ``defn`` assign to ``attribute`` of the instance:
    ``self.attribute = value`` and ``object.__setattr__(self, "attribute", value)``."""
    return [value for name, value in _construction_assignments(defn) if name == attribute]


def assigned_anywhere(defn: ClassDef, attribute: str) -> list[Expression]:
    """The values any method of ``defn`` assigns to ``attribute`` of its instance."""
    return [
        value
        for method in instance_methods(defn)
        if method.arguments
        for name, value in _assignments([node for node, *_ in walk([method.body])], method.arguments[0].variable.name)
        if name == attribute
    ]


class Storage(NamedTuple):
    """What the construction of a class does with what it is given, for the attributes asked
    about: ``stored``, each parameter of ``__init__`` kept as given in one of them of another name
    (``self._config = config``) or held in a display there (``self.data = {"params": params}``),
    with that attribute; ``converted``, those it always assigns a
    value made otherwise and never what it is given as such (``self.breaks = tuple(breaks)``;
    ``object.__setattr__(self, "sizes", sizes)`` after ``sizes = tuple(self.sizes)`` in a
    dataclass's ``__post_init__``): what a construction gives the parameter of that name is not
    what they hold."""

    stored: dict[str, str]
    converted: tuple[str, ...]


def parameter_storage(info: TypeInfo, attributes: Iterable[str]) -> Storage:
    """How the construction methods (``__init__``, ``__post_init__``) of ``info`` and its bases
    store what they are given in ``attributes`` (``Storage``). Read before names are bound: a
    parameter is a name the method does not assign. Only the methods of classes of ``info``'s
    module, whose syntax tree every mode of mypy has whole (another module's may come from the
    cache, without their bodies); an assignment counts as always made where it is a statement of
    the method's own body, not of a branch or loop in it."""
    wanted = set(attributes)
    owner = next((base for base in info.mro if "__init__" in base.names), None)
    found: dict[str, str] = {}
    always: set[str] = set()
    as_given: set[str] = set()
    for base in [base for base in info.mro if base.module_name == info.module_name]:
        for method, this in _construction_methods(base.defn):
            steps = [node for node, _, scope, _ in walk([method.body]) if scope is None]
            rebound = {name for node in steps if isinstance(node, AssignmentStmt) for name in _assigned_names(node)}
            parameters = {argument.variable.name for argument in method.arguments[1:]} - rebound
            for node in steps:
                for name, value in _assignments([node], this):
                    if name not in wanted:
                        continue
                    if not _is_parameter(value, parameters) and not _is_attribute(value, this, name):
                        always.update([name] if node in method.body.body else [])
                        if base is owner and method.name == "__init__":
                            found.update(dict.fromkeys(_held_parameters(value, parameters), name))
                        continue
                    as_given.add(name)
                    if (
                        base is owner
                        and method.name == "__init__"
                        and isinstance(value, NameExpr)
                        and name != value.name
                    ):
                        found[value.name] = name
    return Storage(found, tuple(sorted(always - as_given)))


def _held_parameters(value: Expression, parameters: set[str]) -> list[str]:
    """The ``parameters`` that a display holds as given (``{"params": params}``,
    ``statements.display_values``)."""
    items = display_values(value) or []
    return [item.name for item in items if isinstance(item, NameExpr) and item.name in parameters]


def _is_attribute(value: Expression, this: str, name: str) -> bool:
    """``value`` is the attribute ``name`` of the instance named ``this`` as it stands
    (``self.x``: what a dataclass's generated ``__init__`` stored as given)."""
    return isinstance(value, MemberExpr) and value.name == name and is_name(value.expr, this)


def _is_parameter(value: Expression, parameters: set[str]) -> bool:
    """``value`` may be one of ``parameters`` as given: the name itself, either branch of a
    conditional expression, an operand of ``or``/``and`` (``x if x is not None else ()``)."""
    if isinstance(value, NameExpr):
        return value.name in parameters
    if isinstance(value, ConditionalExpr):
        return _is_parameter(value.if_expr, parameters) or _is_parameter(value.else_expr, parameters)
    if isinstance(value, OpExpr) and value.op in ("or", "and"):
        return _is_parameter(value.left, parameters) or _is_parameter(value.right, parameters)
    return False


def _assigned_names(stmt: AssignmentStmt) -> list[str]:
    """The plain names ``stmt`` assigns, unpacked ones included."""
    targets: list[Expression] = list(stmt.lvalues)
    names = []
    while targets:
        target = targets.pop()
        if isinstance(target, NameExpr):
            names.append(target.name)
        elif isinstance(target, (TupleExpr, ListExpr)):
            targets += target.items
    return names


def holding_attributes(defn: ClassDef, method: str) -> set[str]:
    """The attributes of the instance that the methods of ``defn`` assign a value made of its
    bound ``method`` (``self.f = jax.jit(self.step)``): calling one calls the method."""
    found: set[str] = set()
    for function in instance_methods(defn):
        this = function.arguments[0].variable.name if function.arguments else None
        for node, *_ in walk([function.body]) if this is not None else []:
            if isinstance(node, AssignmentStmt) and any(
                isinstance(expr, MemberExpr) and expr.name == method and is_name(expr.expr, this)
                for expr in get_subexpressions(node.rvalue)
            ):
                found.update(_assigned_attributes(node, this))
    return found


PARTIALS = frozenset({"partial", "functools.partial"})
"""How a ``functools.partial`` call is written: it binds arguments of its own before the call's."""


def held_methods(defn: ClassDef) -> dict[str, tuple[str, ...]]:
    """The attributes that each assignment of a method of ``defn`` gives a bound method of the
    instance as it is, or what a call makes of it, given first and with no argument bound before
    the call's (``self.step = jax.vmap(self._step)`` in construction, in either branch of an
    ``if``; ``self.normalize = self.normalize_jax`` in a set-up method; not
    ``functools.partial(self.step, x)``), with those methods' names: whenever it was assigned,
    calling the attribute binds the instance. Read before names are bound: a partial is known by
    how it is written."""
    found: dict[str, tuple[str, ...]] = {}
    for method in instance_methods(defn):
        if not method.arguments:
            continue
        this = method.arguments[0].variable.name
        for name, value in _assignments([node for node, *_ in walk([method.body])], this):
            if isinstance(value, CallExpr):
                given = value.args[0] if value.args and written(value.callee) not in PARTIALS else None
            else:
                given = value
            if found.get(name) == () or not isinstance(given, MemberExpr) or not is_name(given.expr, this):
                found[name] = ()
            else:
                found[name] = (*found.get(name, ()), given.name)
    return {name: methods for name, methods in found.items() if methods}


def replaced_values(defn: ClassDef, attribute: str) -> list[Expression]:
    """The values the construction of ``defn`` assigns to ``attribute`` where one of its methods
    assigns it at the top of its body, whatever it was given (``self.params =
    immutabledict(params)``): then the attribute holds one of those, not what its declaration
    admits; empty where what construction was given may stay."""
    unconditional = any(
        isinstance(stmt, AssignmentStmt) and attribute in _assigned_attributes(stmt, this)
        for method, this in _construction_methods(defn)
        for stmt in method.body.body
    )
    return assigned_values(defn, attribute) if unconditional else []


def construction_method(defn: ClassDef, value: Expression) -> FuncDef | None:
    """The construction method of ``defn`` whose body holds ``value``."""
    for method, _ in _construction_methods(defn):
        if method.line < value.line <= (method.end_line or method.line):
            return method
    return None


def local_values(function: FuncDef) -> dict[str, list[Expression]]:
    """What ``function`` assigns to each of its names (``x = value``), read by name: in a class's
    hooks the semantic analyser has not bound its methods' names yet."""
    found: dict[str, list[Expression]] = {}
    for node, *_ in walk([function.body]):
        if isinstance(node, AssignmentStmt) and len(node.lvalues) == 1 and isinstance(node.lvalues[0], NameExpr):
            found.setdefault(node.lvalues[0].name, []).append(node.rvalue)
    return found


def rebuilt_attributes(defn: ClassDef) -> list[str]:
    """The attributes whose value the construction of ``defn`` makes anew from what it was given
    (``object.__setattr__(self, "names", tuple(self.names))``, ``self.names = list(names)``), or
    hands, by name, with the instance to a function that may (``freeze(self, ["losses"])``):
    what such an attribute holds is what construction made, not what its declaration admits."""
    found = [
        name
        for method, this in _construction_methods(defn)
        for name, value in _assignments([node for node, *_ in walk([method.body])], this)
        if _made_anew(value, local_values(method))
    ]
    for method, this in _construction_methods(defn):
        for call in calls([method.body]):
            if any(is_name(arg, this) for arg in call.args) and _set_attribute(call, this) is None:
                found += [name for arg in call.args for name in _named(arg)]
    return list(dict.fromkeys(found))


def _made_anew(value: Expression, names: dict[str, list[Expression]]) -> bool:
    """``value`` makes a new object: a call, a display, an operation (``(feature,) * n``), or a
    local name every assignment in ``names`` binds to one (``fmap = tuple(fmap)`` in one branch,
    ``fmap = (fmap,) * n`` in the other)."""
    made = (CallExpr, OpExpr, ListExpr, TupleExpr, SetExpr, DictExpr, ListComprehension, SetComprehension)
    if isinstance(value, NameExpr) and names.get(value.name):
        return all(isinstance(bound, made) for bound in names[value.name])
    return isinstance(value, made)


def refuses(method: FuncDef) -> bool:
    """``method`` (a ``__setattr__``) raises: it guards instances against assignment (once
    sealed, or for some names), rather than letting them change."""
    return any(isinstance(node, RaiseStmt) for node, *_ in walk([method.body]))


def _named(expr: Expression) -> list[str]:
    """The attribute names a string, or a list or tuple of strings, spells."""
    items = expr.items if isinstance(expr, (ListExpr, TupleExpr)) else [expr]
    return [item.value for item in items if isinstance(item, StrExpr)]


def _construction_methods(defn: ClassDef) -> list[tuple[FuncDef, str]]:
    """The instance methods of ``defn`` that run while an instance is made
    (``run_in_construction``), each with the name of its instance parameter."""
    construction = run_in_construction(defn)
    return [
        (method, method.arguments[0].variable.name)
        for method in instance_methods(defn)
        if method.name in construction and method.arguments
    ]


def run_in_construction(defn: ClassDef, roots: Collection[str] = CONSTRUCTION) -> set[str]:
    """The functions of ``defn`` that run only while an instance is made: ``roots`` (the
    construction methods), its static and class methods (factories: ``obj = cls(); obj._fill()``),
    and the instance methods that only those call within the class (``__init__`` calling
    ``self._build()``), and so on."""
    instance = {method.name for method in instance_methods(defn)}
    callers: dict[str, set[str]] = {name: set() for name in instance}
    for function in class_functions(defn):
        for expr in get_subexpressions(function.body):
            name = called_method(expr)
            if name in callers:
                callers[name].add(function.name)
    construction = set(roots) | ({function.name for function in class_functions(defn)} - instance)
    grown = True
    while grown:
        grown = False
        for name, by in callers.items():
            if name not in construction and by and by <= construction:
                construction.add(name)
                grown = True
    return construction


def called_method(expr: Expression) -> str | None:
    """The method ``expr`` calls on a name (``self._fill()``, ``made.update(...)``), not on an
    attribute (``self.ids.update(...)`` calls the dict's method); None for any other expression."""
    if isinstance(expr, CallExpr) and isinstance(expr.callee, MemberExpr) and isinstance(expr.callee.expr, NameExpr):
        return expr.callee.name
    return None


def _construction_assignments(defn: ClassDef) -> list[tuple[str, Expression]]:
    """Each attribute of the instance the construction methods of ``defn`` assign, with the value
    (``_assignments``)."""
    return [
        found
        for method, this in _construction_methods(defn)
        for found in _assignments([node for node, *_ in walk([method.body])], this)
    ]


def _assignments(steps: Iterable[Node], this: str) -> list[tuple[str, Expression]]:
    """Each attribute of the instance named ``this`` that ``steps`` assign, with the value:
    ``self.attribute = value`` and ``object.__setattr__(self, "attribute", value)``."""
    found: list[tuple[str, Expression]] = []
    for node in steps:
        if isinstance(node, AssignmentStmt):
            found += [(name, node.rvalue) for name in _assigned_attributes(node, this)]
        for call in [expr for expr in get_subexpressions(node) if isinstance(expr, CallExpr)]:
            name = _set_attribute(call, this)
            if name is not None:
                found.append((name, call.args[2]))
    return found


def _assigned_attributes(stmt: AssignmentStmt, this: str) -> list[str]:
    """The attributes of the instance named ``this`` that ``stmt`` assigns (``self.a = ...``)."""
    return [lvalue.name for lvalue in stmt.lvalues if isinstance(lvalue, MemberExpr) and is_name(lvalue.expr, this)]


def _set_attribute(call: CallExpr, this: str) -> str | None:
    """The attribute ``object.__setattr__(self, "attribute", value)`` (or ``setattr``) sets."""
    callee, args = call.callee, call.args
    if (
        (isinstance(callee, MemberExpr) and callee.name == "__setattr__" or is_name(callee, "setattr"))
        and len(args) == 3
        and is_name(args[0], this)
        and isinstance(args[1], StrExpr)
    ):
        return args[1].value
    return None


def definition(node: object) -> FuncDef | None:
    """The ``def`` a name refers to, decorated or not."""
    if isinstance(node, Decorator):
        return node.func
    return node if isinstance(node, FuncDef) else None


def instance_methods(defn: ClassDef) -> list[FuncDef]:
    """The functions a class body defines (decorated and overloaded ones included), leaving out
    class and static methods, which get no instance."""
    return [method for stmt in defn.defs.body for method in _methods(stmt, instance=True)]


def class_functions(defn: ClassDef) -> list[FuncDef]:
    """Every function a class body defines: instance, class and static methods."""
    return [method for stmt in defn.defs.body for method in _methods(stmt, instance=False)]


def _methods(stmt: Statement, instance: bool) -> list[FuncDef]:
    if isinstance(stmt, FuncDef):
        return [stmt]
    if isinstance(stmt, Decorator):
        names = {d.name for d in stmt.original_decorators or stmt.decorators if isinstance(d, (NameExpr, MemberExpr))}
        return [] if instance and names & {"staticmethod", "classmethod"} else [stmt.func]
    if isinstance(stmt, OverloadedFuncDef):
        return [method for item in stmt.items for method in _methods(item, instance)]
    return []


def self_reads(function: FuncDef, tree: MypyFile) -> frozenset[str] | None:
    """The attributes of ``self`` that ``function``, a method, reads, with those that the methods
    and properties it reaches through ``self`` read (an abstract one: its overrides in the
    classes ``tree``, the module checked, names); None where that is not known: ``self`` escapes
    (is passed on, returned or stored, ``super()``), a method reached is another module's and its
    class keeps no record of what its methods read (``MethodReads``), or an abstract method
    reached has no override in sight."""
    if not function.info:
        return None
    return _reached(function.info, (), tree, [function])


def takes_self(function: FuncDef) -> bool:
    """Whether ``function`` takes an instance of its class as its first parameter: a function of a
    class body, neither a static nor a class method, whose first parameter is named ``self`` or
    declared as the class (``model: Self``, ``table: "HashTable"``; unannotated in an annotated
    method, mypy declares it so). One whose first parameter is neither (``def K_quad(node_crds,
    prop)``, a ``@staticmethod`` left out) is a plain function called through its class
    (``Quad.K_quad(...)``), as its name and type say."""
    info = defining_class(function)
    if info is None or function.is_static or function.is_class or not function.arg_names:
        return False
    if function.arg_names[0] == "self":
        return True
    signature = function.type
    first = get_proper_type(signature.arg_types[0]) if isinstance(signature, CallableType) else None
    if isinstance(first, TypeVarType):  # Self
        first = get_proper_type(first.upper_bound)
    return isinstance(first, Instance) and first.type in info.mro and first.type.fullname != "builtins.object"


def parameter_reads(function: FuncDef, index: int, info: TypeInfo, tree: MypyFile) -> frozenset[str] | None:
    """The attributes that ``function``, defined in ``tree``, reads through its parameter at
    ``index``, an instance of ``info`` (``p.x``; ``p(...)`` reads ``__call__``), with those the
    methods it reaches that way read (as ``self_reads``); None where that is not known."""
    if index == 0 and takes_self(function):
        return self_reads(function, tree)
    if not function.fullname.startswith(f"{tree.fullname}.") or index >= len(function.arguments):
        return None
    found = _read_through(function.arguments[index].variable.name, function.body, tree.defs)
    return None if found is None else _reached(info, found, tree)


def _reached(
    info: TypeInfo, first: Iterable[str], tree: MypyFile, methods: Sequence[FuncDef] = ()
) -> frozenset[str] | None:
    """``first``, the attributes read of an instance of ``info``, and ``methods`` run on it, with
    what the methods and properties among them read through ``self``, and so on; None where one
    of them is not known."""
    read = set(first)
    seen: set[FuncDef] = set()
    pending = [(info, name) for name in read]
    while pending or methods:
        if not methods:
            methods = _methods_named(*pending.pop())
            continue
        method, *methods = methods
        if method in seen or method.is_static or method.is_class:
            continue  # a static or class method gets no instance: it reads none of its state
        seen.add(method)
        if method.abstract_status != NOT_ABSTRACT:
            overrides = _overrides(method, tree)
            if not overrides:
                return None
            methods = [*overrides, *methods]
            continue
        attributes = _method_reads(method, tree)
        if attributes is None:
            return None
        read |= attributes
        pending += [(method.info, attribute) for attribute in attributes]
    return frozenset(read)


def _methods_named(owner: TypeInfo, name: str) -> list[FuncDef]:
    """The methods that reading ``name`` of an instance of ``owner`` runs: the method itself, a
    property's getter and setter; none for a plain attribute or what ``object`` gives every
    instance (its class and the like: no state of its own)."""
    symbol = owner.get(name)
    node = symbol.node if symbol is not None else None
    defined_in = node.info if isinstance(node, (FuncBase, Decorator, Var)) else None
    if defined_in is not None and defined_in.fullname == "builtins.object" and name != "__dict__":
        return []
    items = node.items if isinstance(node, OverloadedFuncDef) else [node]
    return [method for method in map(definition, items) if method is not None]


def _overrides(method: FuncDef, tree: MypyFile) -> list[FuncDef]:
    """The methods that run for ``method``, an abstract one, on instances of the subclasses of its
    class that ``tree`` names."""
    found: dict[FuncDef, None] = {}
    for symbol in tree.names.values():
        if isinstance(symbol.node, TypeInfo) and method.info in symbol.node.mro[1:]:
            override = symbol.node.get(method.name)
            implementation = definition(override.node) if override is not None else None
            if implementation is not None and implementation is not method:
                found[implementation] = None
    return list(found)


def _method_reads(method: FuncDef, module: MypyFile) -> frozenset[str] | None:
    """What ``method`` reads through its first parameter itself: from its body in ``module``,
    else as its class recorded it (``record_method_reads``)."""
    if not method.info:
        return None
    if method.info.module_name == module.fullname:
        found = _read_through(method.arguments[0].variable.name, method.body, module.defs) if method.arguments else None
        return None if found is None else frozenset(found)
    record = MethodReads.read(method.info)  # a method from the cache keeps no parameters nor body
    names = record.methods.get(method.name) if record is not None else None
    return None if names is None else frozenset(names)


def record_method_reads(ctx: ClassDefContext) -> None:
    """Note in the class's metadata what each of its methods reads through ``self``, for readers
    in other modules (a warm cache keeps no method bodies); a method whose ``self`` escapes is
    left out."""
    info, tree = ctx.cls.info, checked_module(ctx.api)
    MethodReads.erase(info)
    methods = {}
    module = tree.defs if tree is not None else []
    for method in instance_methods(ctx.cls):
        found = _read_through(method.arguments[0].variable.name, method.body, module) if method.arguments else None
        if found is not None:
            methods[method.name] = tuple(sorted(found))
    if methods:
        MethodReads(methods).write(info)


def record_held_methods(ctx: ClassDefContext) -> None:
    """Note in the class's metadata the attributes that hold a bound method of it
    (``held_methods``), for callers in other modules, whose cache keeps no method bodies."""
    HeldMethods.erase(ctx.cls.info)
    held = held_methods(ctx.cls)
    if held:
        HeldMethods(held).write(ctx.cls.info)


def _read_through(
    this: str, body: Block, module: Sequence[Node] = (), seen: frozenset[FuncDef] = frozenset()
) -> set[str] | None:
    """The attributes ``body`` reads through the name ``this`` (``this.x``; ``this(...)`` reads
    ``__call__``), with those that a function of the ``module`` (its top-level statements) reads
    through the parameter ``this`` is passed to (``_compile_signature(self)``); None where it
    uses ``this`` otherwise, or calls ``super()``."""
    expressions = [expr for node, *_ in walk([body]) for expr in get_subexpressions(node)]
    through = [expr for expr in expressions if isinstance(expr, MemberExpr) and is_name(expr.expr, this)]
    called = [expr for expr in expressions if isinstance(expr, CallExpr) and is_name(expr.callee, this)]
    bases = {id(member.expr) for member in through} | {id(call.callee) for call in called}
    read = {member.name for member in through} | ({"__call__"} if called else set())
    for call in (expr for expr in expressions if isinstance(expr, CallExpr)):
        for place, arg in placed(call.arg_kinds, call.arg_names, call.args):
            if not is_name(arg, this):
                continue
            found = read_by_callee(call, place, module, seen)
            if found is None:
                return None
            read |= found
            bases.add(id(arg))
    if any(isinstance(expr, SuperExpr) or is_name(expr, this) and id(expr) not in bases for expr in expressions):
        return None
    return read


def read_by_callee(
    call: CallExpr, place: int | str, module: Sequence[Node], seen: frozenset[FuncDef] = frozenset()
) -> set[str] | None:
    """What the function of the ``module`` (its top-level statements) that ``call`` calls reads
    through the parameter its argument at ``place`` fills (``_read_through``); None where that is
    not known: another module's function, or one that passes it on further than can be read."""
    function = _module_function(call.callee, module)
    parameter = parameter_at(function, place) if function is not None and function not in seen else None
    if function is None or parameter is None:
        return None
    return _read_through(parameter, function.body, module, seen | {function})


def _module_function(callee: Expression, module: Sequence[Node]) -> FuncDef | None:
    """The function defined at the top level of ``module`` that ``callee`` names."""
    if not isinstance(callee, NameExpr):
        return None
    for node in module:
        function = node.func if isinstance(node, Decorator) else node
        if isinstance(function, FuncDef) and function.name == callee.name:
            return function if callee.node in (None, function, node) else None
    return None
