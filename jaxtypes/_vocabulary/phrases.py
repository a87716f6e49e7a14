"""Every sentence of the rules both halves check, composed once from the facts each half finds.

The runtime finds problems in values and in the annotations it evaluates, the mypy plugin in
declared types; both hand what they found (a class's name, a type's spelling, the method and
the instance it is bound to) to the functions here, which compose the ``what`` and the ``fix``
that ``Rule.message`` puts after the field or parameter. A sentence changed here changes in both
halves at once, and ``tests/differential`` compares the two halves' messages word for word.

A problem is said of a *subject*: a declared type (``typed("list[int]")``: "is typed
list[int]") or, at run time, a value (``holding("Vehicle")``: "holds a Vehicle"). Types are
spelled the same way on both sides (``spell_*``): builtins by name, other classes by module and
qualified name, arrays as ``jax.Array``, unions with ``|``, markers as ``Static[...]``.

Rules only the runtime checks (devices, agreement across processes, annotations it cannot resolve)
word their messages where they are checked; the sanitizer's findings are worded here. Imports neither jax nor mypy.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from jaxtypes._vocabulary.positions import MarkerKind
from jaxtypes._vocabulary.rules import (
    ADMITTED_UNHASHABLE_FIXES,
    ARRAY_ITEMS_FIX,
    BOTH_MARKERS_FIX,
    BOUND_METHOD_FIX,
    CHANGED_VALUE_FIX,
    CLASS_OBJECT_TRACED_FIX,
    DECLARED_NOT_FROZEN_FIX,
    DYNAMIC_IN_STATIC_FIX,
    EQ_WITHOUT_HASH_FIX,
    FUNCTION_ARGUMENT_FIX,
    HASHABLE_PARAMETER_FIX,
    IDENTITY_HASH_FIX,
    JIT_BOUND_METHOD,
    JIT_COMPILE_BUDGET,
    JIT_FRESH_FUNCTION,
    JIT_FRESH_FUNCTION_STRICT,
    JIT_METHOD_SELF,
    JIT_RECOMPILE,
    JIT_STALE_GLOBAL,
    JIT_STALE_STATIC,
    JIT_UNSUPPORTED_ARGUMENT,
    JITTED_IN_LOOP_FIX,
    MARKER_MISUSE,
    PLAIN_CLASS_SELF_FIX,
    STATIC_BOUND_METHOD,
    STATIC_CLASS_MARKED_DYNAMIC_FIX,
    STATIC_CLASS_SELF_TRACED_FIX,
    STATIC_CLASS_TRACED_FIX,
    STATIC_DYNAMIC_CHILD,
    STATIC_FRESH_CALLABLE,
    STATIC_IDENTITY_HASH,
    STATIC_NOT_FROZEN,
    STRICT_TWINS,
    TEXT_FIELD_FIX,
    TRACED_LEAF_FIX,
    TRACED_BY_TRANSFORM_FIX,
    LAX_TRACED_INTO_STATIC_FIX,
    TRANSFORMED_INTO_STATIC_FIX,
    NONDIFF_TRACER_FIX,
    PARTIAL_BINDS_STATIC_FIX,
    TRACED_INTO_STATIC_FIX,
    STATIC_SUBCLASS,
    STATIC_UNHASHABLE,
    STATIC_VARIADIC_FIX,
    UNHASHABLE_FIXES,
    Message,
    Rule,
)


class Problem(NamedTuple):
    """A rule broken, and the ``what`` and optional ``fix`` of ``Rule.message``; ``of`` is the
    full name of the class whose values break it, where it is about one class's values (whether
    they change, or are built again, decides some findings)."""

    rule: Rule
    what: str
    fix: str | None = None
    of: str | None = None

    def message(self, where: str) -> Message:
        """The message, for the field or parameter ``where`` names."""
        return self.rule.message(where, self.what, self.fix)


# --- Subjects: what a problem is said of ----------------------------------------------------


def a(name: str) -> str:
    """``name`` with its indefinite article: ``a Vehicle``, ``an Engine``."""
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def typed(spelling: str) -> str:
    """A declared type: ``is typed list[int]``."""
    return f"is typed {spelling}"


def holding(class_name: str) -> str:
    """A value of a class, as the runtime sees it: ``holds a Vehicle``."""
    return f"holds {a(class_name)}"


# --- Where: the field, parameter or call a message starts with -------------------------------


def parameter(name: str | None, function: str) -> str:
    """A parameter of a jitted function: ``parameter 'n' of Solver.step``."""
    return f"parameter {name!r} of {function}"


def library_field(where: str, marker: str) -> str:
    """A static field declared with another library's marker (``StaticMarker.marker``):
    ``Foo.b (eqx.field(static=True))``."""
    return f"{where} ({marker})"


def jitted_bound_method(jit: str, class_name: str, method: str) -> str:
    """``jit(obj.method)``: ``jaxtypes.jit(Env.reset bound to an instance)``."""
    return f"{jit}({class_name}.{method} bound to an instance)"


def call_argument(position: int | str, static: bool = True, call: str = "this jitted call") -> str:
    """A value passed in a position of a call of a jitted function: a static one, or one traced;
    ``call`` names the call (``jitted_call_at``, where the finding is reported elsewhere)."""
    label = f"{position!r}" if isinstance(position, str) else str(position)
    return f"{'static ' if static else ''}argument {label} of {call}"


def jitted_call_at(line: int, jit: str = "jitted") -> str:
    """A call of a jitted function (``jit``: ``eqx.filter_jit`` where it is not jax's), named
    from a finding reported at another line."""
    return f"the {jit} call {_AT_LINE.format(line=line)}"


def jit_call(jit: str) -> str:
    """A call of ``jit`` itself (``jax.jit``, ``nnx.jit``), where what it is given is wrong."""
    return f"this {jit} call"


JAX_JIT_CALL = jit_call("jax.jit")


def callable_object(class_name: str, jit: str = "jax.jit") -> str:
    """``jax.jit(obj)`` of a callable object, which ``jit`` keys its cache on."""
    return f"the callable object given to {jit} ({class_name})"


# --- static-dynamic-child ----------------------------------------------------------------------


def array_type(spelling: str) -> Problem:
    return Problem(STATIC_DYNAMIC_CHILD, f"{typed(spelling)}, an array type")


def traced_by(transform: str) -> Problem:
    """A value a jax transformation traces (``jax.make_jaxpr(f)(x, y)``) that reaches a static
    position of the jitted ``f``: a tracer there."""
    return Problem(
        STATIC_DYNAMIC_CHILD,
        f"is a tracer there: {transform} traces the arguments it passes on",
        TRACED_BY_TRANSFORM_FIX.format(transform=transform),
    )


def given_to(transform: str) -> str:
    """The jitted function a transformation is given, as a call ``call_argument`` names."""
    return f"the jitted function given to {transform}"


def nondiff_argument(position: int | str, function: str) -> str:
    """A value passed in a ``nondiff_argnums`` position of a call of a function with a custom
    derivative rule (``function``: ``jax.custom_vjp``)."""
    return f"nondiff argument {position} of this {function} call"


def nondiff_tracer(problem: Problem) -> Problem:
    """``problem``, a tracer where a custom derivative rule closes over a Python value, with the
    fix for that place."""
    return problem._replace(fix=NONDIFF_TRACER_FIX)


def partial_binds_static(position: int | str, function: str) -> Problem:
    """A ``jax.tree_util.Partial`` in a traced position that binds a static ``position`` of the
    jitted ``function`` it wraps: its bound arguments are its children, traced by jit."""
    return Problem(
        STATIC_DYNAMIC_CHILD,
        f"is a jax.tree_util.Partial binding static argument {position} of the jitted {function}: jit "
        "traces what a Partial binds, so a tracer reaches that static position",
        PARTIAL_BINDS_STATIC_FIX,
    )


def traced_parameter(name: str, function: str) -> Problem:
    """A traced parameter of a jitted function passed on into a static position: inside the
    trace it is a tracer, whatever its declared type."""
    return Problem(
        STATIC_DYNAMIC_CHILD,
        f"is the traced parameter {name!r} of the jitted {function}, a tracer",
        TRACED_INTO_STATIC_FIX.format(name=name, function=function),
    )


def given_traced_parameter(name: str, function: str, traced: str, caller: str, line: int) -> Problem:
    """A parameter of a function no jit compiles, which a jitted ``caller`` gives its traced
    parameter ``traced`` (at ``line``), passed on into a static position: a tracer there."""
    return Problem(
        STATIC_DYNAMIC_CHILD,
        f"is the parameter {name!r} of {function}, which the jitted {caller} gives its traced "
        f"parameter {traced!r} {_AT_LINE.format(line=line)}: a tracer",
        TRACED_INTO_STATIC_FIX.format(name=traced, function=caller),
    )


def transformed_parameter(name: str, function: str, primitive: str, *, control_flow: bool) -> Problem:
    """A parameter of a function jax.lax's control flow traces (a loop's body, a branch of
    ``cond``: a loop's index too), or a jax transformation (``jax.grad``, ``jax.vmap``), passed on
    into a static position: a tracer there."""
    fix = LAX_TRACED_INTO_STATIC_FIX if control_flow else TRANSFORMED_INTO_STATIC_FIX
    return Problem(
        STATIC_DYNAMIC_CHILD,
        f"is the parameter {name!r} of {function}, which {primitive} traces: a tracer",
        fix.format(name=name, primitive=primitive),
    )


def pytree_type(class_name: str) -> Problem:
    return Problem(STATIC_DYNAMIC_CHILD, f"{typed(class_name)}, a pytree_dataclass")


def array_value(class_name: str, *, tracer: bool = False, at: str = "") -> Problem:
    """An array (or a tracer) where the runtime finds one; ``at`` is its path inside a value."""
    held = "a tracer" if tracer else f"an array ({class_name})"
    return Problem(STATIC_DYNAMIC_CHILD, f"holds {held}{f' at {at}' if at else ''}")


def pytree_value(class_name: str) -> Problem:
    return Problem(STATIC_DYNAMIC_CHILD, f"holds a pytree_dataclass ({class_name})")


# --- static-unhashable --------------------------------------------------------------------------


def unhashable(subject: str, builtin: str | None = None) -> Problem:
    """A value of an unhashable class; ``builtin`` names the builtin it is or derives from
    (``list``), whose own fix (a tuple) replaces the rule's."""
    fix = UNHASHABLE_FIXES.get(builtin) if builtin is not None else None
    return Problem(STATIC_UNHASHABLE, f"{subject}, which is unhashable", fix)


def admits_unhashable(spelling: str, builtin: str, hashable: str) -> Problem:
    """A declared collection interface (``Sequence[int]``) whose usual values include the
    unhashable ``builtin`` (a list); ``hashable`` spells the type to declare instead."""
    fix = ADMITTED_UNHASHABLE_FIXES[builtin].format(hashable=hashable)
    return Problem(STATIC_UNHASHABLE, f"{typed(spelling)}, which admits a {builtin} (unhashable)", fix)


def eq_without_hash(subject: str) -> Problem:
    """A class that defines ``__eq__`` without ``__hash__``, which Python makes unhashable."""
    return Problem(
        STATIC_UNHASHABLE, f"{subject}, which is unhashable (it defines __eq__ without __hash__)", EQ_WITHOUT_HASH_FIX
    )


# --- static-identity-hash -----------------------------------------------------------------------


def identity_hash(subject: str, fix: str | None = None, of: str | None = None) -> Problem:
    return Problem(STATIC_IDENTITY_HASH, f"{subject}, which hashes by identity", fix, of)


def hash_without_eq(subject: str, fix: str | None = None, of: str | None = None) -> Problem:
    """A class whose ``__hash__`` comes without any ``__eq__``: equal copies are still unequal."""
    return Problem(
        STATIC_IDENTITY_HASH, f"{subject}, which compares by identity (it defines __hash__ but not __eq__)", fix, of
    )


def eq_false_dataclass(subject: str, of: str | None = None) -> Problem:
    """``@dataclass(eq=False)``, which keeps ``object.__eq__`` and ``object.__hash__``."""
    return Problem(STATIC_IDENTITY_HASH, f"{subject}, a dataclass with eq=False that hashes by identity", of=of)


def identity_callable(class_name: str) -> Problem:
    """A callable object of a class that hashes by identity."""
    return identity_hash(holding(f"{class_name} callable"))


# --- static-not-frozen --------------------------------------------------------------------------


def not_frozen(subject: str, of: str | None = None) -> Problem:
    return Problem(STATIC_NOT_FROZEN, f"{subject}, a dataclass that is not frozen", of=of)


DECLARED_NOT_FROZEN = Problem(
    STATIC_NOT_FROZEN,
    "is declared static_dataclass(frozen=False)",
    DECLARED_NOT_FROZEN_FIX,
)


def inherits_not_frozen(base: str) -> Problem:
    return Problem(STATIC_NOT_FROZEN, f"inherits from {base}, a dataclass that is not frozen")


def changing_instances(spelling: str, change: str) -> Problem:
    """A value of a plain class that hashes by value, whose instances ``change`` (evidence)."""
    return Problem(
        STATIC_NOT_FROZEN, f"{typed(spelling)}, whose instances change after they are made: {change}", CHANGED_VALUE_FIX
    )


# --- static-bound-method and static-fresh-callable -------------------------------------------


BOUND_METHOD_TYPE = Problem(STATIC_BOUND_METHOD, f"{typed('types.MethodType')}, a bound method")


def bound_method(method: str, instance_class: str) -> Problem:
    """``obj.method`` in a static position: ``method`` is the function's qualified name
    (``Helper.run``), ``instance_class`` the class of ``obj``."""
    return Problem(
        STATIC_BOUND_METHOD,
        f"holds the bound method {method} (bound to a {instance_class} instance)",
        BOUND_METHOD_FIX.format(method=method),
    )


A_LAMBDA = "a lambda"


def made_by(transformation: str) -> str:
    """A function a jax transformation returns: ``a function made by jax.jit``."""
    return f"a function made by {transformation}"


A_JITTED_FUNCTION = made_by("jax.jit")


def a_local_function(qualname: str) -> str:
    """A function defined inside a function: ``the local function f.<locals>.g``."""
    return f"the local function {qualname}"


def fresh_callable(described: str) -> Problem:
    """A callable made afresh (``described``: ``A_LAMBDA``, ``a_local_function``,
    ``A_JITTED_FUNCTION``, or a value holding one: ``holding_fresh``) in a static value."""
    return Problem(STATIC_FRESH_CALLABLE, f"holds {described}")


def holding_fresh(container: str, part: str | None, described: str) -> str:
    """A value made afresh because what it holds is: ``an Opt whose init is a lambda`` (``part``
    the field), ``a tuple holding a lambda`` (no ``part``)."""
    return f"{a(container)} whose {part} is {described}" if part else f"{a(container)} holding {described}"


def returned_by(described: str, function: str) -> str:
    """A callable made afresh by every call of ``function``, which returns it."""
    return f"what {function} returns, {described}"


LAMBDA = fresh_callable(A_LAMBDA)


def local_function(qualname: str) -> Problem:
    return fresh_callable(a_local_function(qualname))


# --- static-subclass, and a problem found through another class ------------------------------


def undecorated_subclass(base: str) -> Problem:
    return Problem(STATIC_SUBCLASS, f"subclasses the static_dataclass {base} without being decorated itself")


def given_instead(declared: str, problem: Problem) -> Problem:
    """A value its field's declaration does not admit, given at a constructor call: ``is
    declared int but given a value typed jax.Array, an array type``."""
    return problem._replace(what=f"is declared {declared} but given a value {problem.what.removeprefix('is ')}")


def given_for(parameter: str, problem: Problem) -> Problem:
    """A value a constructor keeps in a field of another name, alone or in a display it builds
    (``self.data = {"params": params}``): ``holds the value given for params, typed jax.Array,
    an array type``."""
    return problem._replace(what=f"holds the value given for {parameter}, {problem.what.removeprefix('is ')}")


def through_class(class_name: str, problem: Problem) -> Problem:
    """A field typed as a class whose own ``problem`` is recorded for it, its ``what`` a whole
    sentence (``Inner.f is typed ...``): ``is typed Inner, and Inner.f is typed ...``."""
    return problem._replace(what=f"{typed(class_name)}, and {problem.what}")


def through_part(class_name: str, part: str, problem: Problem) -> Problem:
    """A field typed as a class one of whose fields or attributes (``part``) has ``problem``."""
    return through_class(class_name, problem._replace(what=f"{class_name}.{part} {problem.what}"))


def made_display(builtin: str, line: int) -> Problem:
    """A list, dict or set display made at ``line`` that reaches the place reported (through a
    variable, a parameter without annotation, a constructor)."""
    return unhashable(f"holds the {builtin} made at line {line}", builtin)


def made_of_array_items(builtin: str, line: int) -> Problem:
    """``tuple(a)`` of a jax array (or of its rows, ``tuple(tuple(r) for r in a)``): iterating a
    jax array yields arrays, not Python numbers."""
    return Problem(
        STATIC_DYNAMIC_CHILD,
        f"holds the {builtin} made at line {line} from the items of a jax array, which are arrays",
        ARRAY_ITEMS_FIX,
    )


def made_at(problem: Problem, line: int) -> Problem:
    """``problem`` of a type, said of the value made at ``line`` that has it and reaches the place
    reported: ``holds the value made at line 16, typed jax.Array, an array type``."""
    declared = typed("")
    if problem.what.startswith(declared):
        return problem._replace(what=f"holds the value made at line {line}, typed {problem.what[len(declared) :]}")
    return problem._replace(what=f"{problem.what} (the value made at line {line})")


def with_change(problem: Problem, change: str) -> Problem:
    """``problem`` with the evidence that the value goes wrong (its object changes)."""
    return problem._replace(what=f"{problem.what}, and {change}")


# --- marker-misuse ------------------------------------------------------------------------------


BOTH_MARKERS = Problem(
    MARKER_MISUSE,
    "is annotated both Static[...] and Dynamic[...]",
    BOTH_MARKERS_FIX,
)

DYNAMIC_IN_STATIC = Problem(
    MARKER_MISUSE,
    "is marked Dynamic[...] in a static_dataclass, whose fields are all static",
    DYNAMIC_IN_STATIC_FIX,
)


def nested_marker(kind: MarkerKind, spelling: str) -> Problem:
    return Problem(MARKER_MISUSE, f"has {kind.capitalize()}[...] nested inside {spelling}")


def static_variadic(stars: str, name: str) -> Problem:
    """``*args: Static[...]`` (``stars`` is ``*``) or ``**kwargs: Static[...]``."""
    return Problem(
        MARKER_MISUSE,
        f"is {stars}{name}, which jit cannot mark static",
        STATIC_VARIADIC_FIX,
    )


# --- jit-unsupported-argument -------------------------------------------------------------------


def static_class_marked_dynamic(spelling: str) -> Problem:
    return Problem(
        JIT_UNSUPPORTED_ARGUMENT,
        f"{typed(spelling)}, a static_dataclass, but is marked Dynamic[...]",
        STATIC_CLASS_MARKED_DYNAMIC_FIX,
    )


def static_class_traced(spelling: str) -> Problem:
    """A static class's instance passed where plain ``jax.jit`` traces: no pytree, no JAX type."""
    return Problem(
        JIT_UNSUPPORTED_ARGUMENT,
        f"{typed(spelling)}, a static_dataclass, which jit cannot trace",
        STATIC_CLASS_TRACED_FIX,
    )


def not_a_jax_type(spelling: str, *, hashable: bool) -> Problem:
    """A traced parameter of a type jit cannot trace; ``hashable`` where it could be static."""
    fix = HASHABLE_PARAMETER_FIX.format(spelling=spelling)
    return Problem(JIT_UNSUPPORTED_ARGUMENT, f"{typed(spelling)}, which is not a JAX type", fix if hashable else None)


FUNCTION = "function"
"""The leaf a function is, for ``traced_leaf`` and ``leaf_in``."""


def traced_leaf(spelling: str, leaf: str) -> Problem:
    """A value jit traces that is itself a ``leaf`` no JAX type: a ``str``, a ``set``, a device,
    a ``FUNCTION``."""
    if leaf == FUNCTION:
        return Problem(JIT_UNSUPPORTED_ARGUMENT, f"is {a(FUNCTION)}, which is not a JAX type", FUNCTION_ARGUMENT_FIX)
    return Problem(JIT_UNSUPPORTED_ARGUMENT, f"{typed(spelling)}, which is not a JAX type", TRACED_LEAF_FIX)


def leaf_in(spelling: str, part: str, leaf: str) -> Problem:
    """A value jit traces, typed ``spelling``, whose ``part`` is a ``leaf`` no JAX type: one
    part (``item 0``, ``field mode``), or each of a list's ``items`` or a dict's ``values``."""
    holds = f"{part} are each {a(leaf)}" if part in ("items", "values") else f"{part} is {a(leaf)}"
    return Problem(
        JIT_UNSUPPORTED_ARGUMENT,
        f"{typed(spelling)}, whose {holds}, which is not a JAX type",
        FUNCTION_ARGUMENT_FIX if leaf == FUNCTION else TRACED_LEAF_FIX,
    )


def text_leaf(class_name: str, field: str, text: str) -> Problem:
    """A pytree jit traces whose data field ``field`` is declared ``str`` or ``bytes``."""
    return Problem(
        JIT_UNSUPPORTED_ARGUMENT,
        f"{typed(class_name)}, whose data field {field} is a {text}, which is not a JAX type",
        TEXT_FIELD_FIX,
    )


# --- jit-method-self ----------------------------------------------------------------------------


def plain_class_self(class_name: str) -> Problem:
    """A jitted method of a class that is neither static nor a pytree."""
    return Problem(
        JIT_METHOD_SELF,
        f"is jitted, and {class_name} is a plain class, so jit cannot pass self correctly",
        PLAIN_CLASS_SELF_FIX.format(class_name=class_name),
    )


def class_object_traced(class_name: str) -> Problem:
    """A jitted class method whose first argument, the class itself, is traced."""
    return Problem(
        JIT_METHOD_SELF,
        f"is a jitted classmethod, and its first argument, the class {class_name}, is no JAX type",
        CLASS_OBJECT_TRACED_FIX,
    )


def static_class_self_traced(class_name: str) -> Problem:
    """A method of a static class under plain ``jax.jit``, with ``self`` traced."""
    return Problem(
        JIT_METHOD_SELF,
        f"is jitted with self traced, and {class_name} is a static_dataclass, not a pytree, so jit cannot pass self",
        STATIC_CLASS_SELF_TRACED_FIX,
    )


# --- jit-bound-method, and the evidence that an object changes ---------------------------------


def jitted_mutable_object(class_name: str, change: str | None = None) -> Problem:
    """``jit(obj.method)``: ``change`` is the evidence that ``obj`` changes, where it was needed."""
    compiled = f"would compile that {class_name} instance's current attributes into the code"
    return Problem(JIT_BOUND_METHOD, compiled if change is None else f"{compiled}, and {change}")


def fresh_function_again(described: str, where: str, eager: bool = False) -> Problem:
    """``jax.jit`` of a function made afresh (``described`` as for ``fresh_callable``) ``where``
    (``repeatedly``) runs: a new function object, compiled afresh, every time; ``eager``: jax.lax's
    control flow, run outside jit, compiles it."""
    compiles = f"compiles {described} outside any jit" if eager else f"jits {described}"
    return Problem(JIT_FRESH_FUNCTION, f"{compiles}, and {made_again(where)}", JITTED_IN_LOOP_FIX)


def fresh_function_reused(described: str, where: str, loop: int) -> Problem:
    """``jax.jit`` of a function made afresh ``where`` (``repeatedly``) runs, which the code that
    makes it calls in its own loop at ``loop``: each compile serves that loop's calls (a training
    run per data set), so only its opt-in twin."""
    return Problem(
        JIT_FRESH_FUNCTION_STRICT,
        f"jits {described}, and {made_again(where)}, once for all the calls of the loop at line {loop}",
        JITTED_IN_LOOP_FIX,
    )


def fresh_function_per_call(described: str, function: str) -> Problem:
    """``jax.jit`` of a function made afresh by every call of ``function``, which calls it and
    keeps it nowhere: every call of ``function`` compiles it again (opt-in: no code repeats it)."""
    return Problem(
        JIT_FRESH_FUNCTION_STRICT,
        f"jits {described}, which every call of {function} makes and calls anew, so each call compiles again",
        JITTED_IN_LOOP_FIX,
    )


def bound_method_per_call(function: str) -> Problem:
    """``jax.jit(obj.method)`` made by every call of ``function``, which calls it and keeps it
    nowhere: a new bound-method object, compiled again at each call (opt-in: no code repeats it)."""
    return Problem(
        JIT_FRESH_FUNCTION_STRICT,
        f"is a new bound method at every call of {function}, which calls it only there, so each call compiles again",
        JITTED_IN_LOOP_FIX,
    )


def jitted_again(where: str) -> Problem:
    """``jax.jit(obj.method)`` run ``where`` (``repeatedly``): a new bound-method object each time."""
    return Problem(JIT_BOUND_METHOD, f"runs {where}, so each run jits a new bound-method object", JITTED_IN_LOOP_FIX)


def unobserved(problem: Problem) -> Problem:
    """``problem`` where the code shows no evidence that it goes wrong (the value is only compared,
    is a tracer only where a caller gives one, or is an identity built once and never changed):
    its opt-in twin (``rules.STRICT_TWINS``)."""
    twin = STRICT_TWINS.get(problem.rule)
    return problem if twin is None else problem._replace(rule=twin)


def defines_setattr(class_name: str) -> str:
    return f"{class_name} defines __setattr__"


def method_assigns(class_name: str, method: str, attribute: str, deletes: bool = False) -> str:
    return f"{class_name}.{method} {'deletes' if deletes else 'assigns'} self.{attribute}"


_AT_LINE = "at line {line}"
"""How an evidence phrase names the line of the same file where the evidence is."""


def evidence_lines(what: str) -> list[int]:
    """The lines a finding's words name as its evidence (``assigned_at``, ``changed_in_place_at``,
    ``built_per_iteration``, ``made_per_iteration``), for an editor to show beside it."""
    before, after = _AT_LINE.split("{line}")
    return [int(match) for match in re.findall(re.escape(before) + r"(\d+)" + re.escape(after), what)]


def assigned_at(target: str, attribute: str, line: int) -> str:
    return f"{target}.{attribute} is assigned {_AT_LINE.format(line=line)}"


def changed_at(what: str, attribute: str, line: int) -> str:
    """``what`` (``c.n``, assigned; ``c.reset()``, a call of a method that assigns ``attribute``)
    changes an instance at ``line``."""
    if what.endswith("()"):
        return f"{what} assigns self.{attribute} {_AT_LINE.format(line=line)}"
    return assigned_at(what, attribute, line)


def while_tracing(assigns: str, function: str) -> str:
    """``assigns`` (``method_assigns``) runs inside ``function``, which jit traces: only then."""
    return f"{assigns}, which runs only while jit traces {function}"


def calls_and_changes(method: str, jitted: str, attribute: str) -> str:
    """``method`` calls the jitted method ``jitted`` (or the attribute holding its jit) and
    changes what it reads."""
    return f"{method} calls self.{jitted} and changes self.{attribute}, which it reads"


def changing_call(receiver: str, method: str) -> str:
    """Where ``changes_static_self`` is said: the call."""
    return f"{receiver}.{method}()"


def changes_static_self(class_name: str, attribute: str, jitted: str) -> Problem:
    """A call that changes ``attribute`` of an instance of ``class_name``, which its method
    ``jitted`` reads with a static ``self``, hashed by identity."""
    return Problem(
        STATIC_IDENTITY_HASH,
        f"changes self.{attribute} of {a(class_name)}, which {class_name}.{jitted} reads with a static self "
        "hashed by identity: later calls run the code traced before",
        IDENTITY_HASH_FIX,
    )


def changes_in_place(class_name: str, method: str, attribute: str) -> str:
    return f"{class_name}.{method} changes self.{attribute} in place"


def changed_in_place_at(target: str, attribute: str, line: int) -> str:
    return f"{target}.{attribute} is changed in place {_AT_LINE.format(line=line)}"


def repeatedly(line: int, functions: Sequence[str] = ()) -> str:
    """Where code runs again and again: inside a loop at ``line``, or, where ``functions`` are
    given, in the first of them, called from each next one, the last of which a loop at ``line``
    calls."""
    in_loop = f"inside a loop {_AT_LINE.format(line=line)}"
    if not functions:
        return in_loop
    callers = "".join(f", from {caller}" for caller in functions[1:])
    return f"by every call of {functions[0]}{callers}, which runs {in_loop}"


def called_from(function: str, lines: Sequence[int]) -> str:
    """Where code runs again: in ``function``, which the module calls at each of ``lines``."""
    listed = ", ".join(map(str, lines[:-1])) + f" and {lines[-1]}"
    return f"by every call of {function}, which runs at lines {listed}"


def copied_at(line: int) -> str:
    """Where an equal copy is made again: by the same code given the same arguments."""
    return f"again {_AT_LINE.format(line=line)} with the same arguments"


def assigned_while_tracing(function: str, target: str, attribute: str) -> str:
    """``function``, which jit traces, assigns ``target.attribute``."""
    return (
        f"{function}, which jit traces, assigns {target}.{attribute}, which runs only while tracing and stores a tracer"
    )


def counted_while_tracing(function: str, target: str, attribute: str, line: int) -> str:
    """``function``, which jit traces, sets ``target.attribute`` (a count, a flag), which ``line``
    reads."""
    return (
        f"{function}, which jit traces, sets {target}.{attribute} only while tracing, not at each call, "
        f"and it is read {_AT_LINE.format(line=line)}"
    )


def compared_while_tracing(function: str) -> str:
    """Where a value in pytree metadata is compared while jit traces: inside ``function``."""
    return f"it is compared inside {function}, which jit traces, where the comparison is traced and fails"


def handed_to_jit(class_name: str, where: str, line: int) -> str:
    """Instances of ``class_name`` flattened by jit through ``where`` (a jitted function, or what
    hands out their structure) at ``line``."""
    return (
        f"{a(class_name)} meets jit through {where} {_AT_LINE.format(line=line)}, "
        "where another instance's metadata is compared with it"
    )


def made_again(where: str) -> str:
    """A value made afresh ``where`` (``repeatedly``, ``copied_at``) runs."""
    return f"it is made {where}, so every copy compiles again"


def built_again(class_name: str, where: str) -> str:
    """Instances of ``class_name`` built ``where`` (``repeatedly``, ``copied_at``) runs."""
    return f"{a(class_name)} is built {where}, so every copy compiles again"


def built_with(owner: str, held: str, again: str) -> str:
    """Each ``owner`` builds a new ``held``, and ``again`` (``built_again``) says where owners
    are built again."""
    return f"each {owner} builds a new {held}, and {again}"


# --- The sanitizer: what it saw while the program ran --------------------------------------------


def static_argument(name: str) -> str:
    """A static argument of a jitted call, by name or position."""
    return f"static argument {name!r}"


def bound_object(class_name: str) -> str:
    """The object behind ``jax.jit(obj.method)`` or a jitted callable instance ``jax.jit(obj)``."""
    return f"its {class_name} object"


def pytree_metadata(argument: str) -> str:
    """The pytree metadata (static fields, aux data) of a jitted call's traced argument."""
    return f"pytree metadata of argument {argument!r}"


def partial_argument(name: str) -> str:
    """An argument bound by ``functools.partial`` into the function given to jit."""
    return f"the partial's argument {name!r}"


def stale_static(function: str, subject: str, path: str, before: str, after: str) -> Message:
    """``jit-stale-static``: a call that reused code compiled for a value since changed in place."""
    return JIT_STALE_STATIC.message(
        f"{function}: {subject}", f"changed since jit compiled for it ({path}: {before} -> {after})"
    )


def stale_global(function: str, kind: str, name: str, path: str, before: str, after: str) -> Message:
    """``jit-stale-global``: a call that reused code traced with an earlier value of ``name``, a
    global (or ``kind``: a closure variable, a class's or module's attribute)."""
    return JIT_STALE_GLOBAL.message(
        traced_global(function, kind, name), f"changed since jit traced it ({path}: {before} -> {after})"
    )


def traced_global(function: str, kind: str, name: str) -> str:
    """The subject of ``jit-stale-global``: a global (or ``kind``: a closure variable, a class's
    or module's attribute) the jitted ``function`` reads."""
    return f"{function}: {kind} {name!r}"


def rebound_after_tracing(line: int, traced: int | None) -> str:
    """A global rebound at ``line`` after the call at line ``traced`` traced the function that
    reads it; or, where ``traced`` is None, in a loop that calls that function."""
    if traced is None:
        return (
            f"is rebound {_AT_LINE.format(line=line)} in the loop that makes this call, so from the "
            "second iteration on the call runs code traced with the first value"
        )
    return (
        f"is rebound {_AT_LINE.format(line=line)} after the call at line {traced} traced it, so this "
        "call runs code traced with the old value"
    )


def recompiled(function: str, number: int, reason: str, fix: str) -> Message:
    """``jit-recompile``: a compile for values equal to an earlier compile's; ``reason`` and
    ``fix`` are the compile log's own words."""
    return JIT_RECOMPILE.message(f"{function} compiled again (compile #{number}):", reason, fix)


def fresh_function(function: str, count: int) -> Message:
    """``jit-fresh-function``: one definition jitted as ``count`` new, equal function objects."""
    return JIT_FRESH_FUNCTION.message(
        function, f"was jitted as {count} new function objects, equal in value, each compiling"
    )


def over_budget(function: str, count: int, budget: int) -> Message:
    """``jit-compile-budget``."""
    return JIT_COMPILE_BUDGET.message(function, f"compiled {count} times, over its budget of {budget}")


# --- Spelling a type ------------------------------------------------------------------------------


def spell_class(module: str, qualname: str) -> str:
    """A class: builtins by name (``None`` for ``NoneType``), others by module and qualified name."""
    if module == "builtins":
        return "None" if qualname == "NoneType" else qualname
    return f"{module}.{qualname}"


def spell_array(class_name: str) -> str:
    """jax's and numpy's array classes as users import them."""
    return "numpy.ndarray" if class_name == "ndarray" else f"jax.{class_name}"


def spell_generic(name: str, args: Sequence[str]) -> str:
    return f"{name}[{', '.join(args)}]" if args else name


def spell_variadic_tuple(item: str) -> str:
    return f"tuple[{item}, ...]"


def spell_union(members: Sequence[str]) -> str:
    """Each member once, in order, as Python's ``Union`` keeps them (mypy keeps repeats)."""
    return " | ".join(dict.fromkeys(members))


def spell_callable(parameters: Sequence[str] | None, returns: str) -> str:
    """``Callable[..., R]`` where ``parameters`` is None, else ``Callable[[A, B], R]``."""
    listed = "..." if parameters is None else f"[{', '.join(parameters)}]"
    return f"Callable[{listed}, {returns}]"


def spell_marked(kind: MarkerKind, inner: str) -> str:
    return f"{kind.capitalize()}[{inner}]"
