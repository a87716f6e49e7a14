"""The rules jaxtypes enforces: one stable code, one reason and one fix each.

This is the vocabulary shared by the runtime (which checks values and annotations) and the
mypy plugin (which checks declared types), so both report the same code with the same words.
It imports neither jax nor mypy: the plugin imports it at mypy start-up.
"""

from __future__ import annotations

from typing import NamedTuple


class Message(NamedTuple):
    """A finding as a person reads it: a headline that says what is wrong and where, then why it
    matters for jit, then the fix, each said once.

    Every side lays it out in this order: the runtime as an exception's message (``text``), the
    plugin as a mypy error with two ``note:`` lines (``notes``), ``jaxtypes check`` as the
    headline, the code frame, then the ``why:`` and ``fix:`` lines, and JSON and SARIF as fields.
    """

    code: str
    headline: str
    why: str
    fix: str

    def notes(self) -> tuple[str, str]:
        """The lines that follow the headline: ``why: ...`` and ``fix: ...``."""
        return (f"{WHY}{self.why}", f"{FIX}{self.fix}")

    def text(self) -> str:
        """The headline with its ``[code]``, then the notes indented below it."""
        return "\n  ".join([f"{self.headline} [{self.code}]", *self.notes()])


WHY = "why: "
FIX = "fix: "
"""How the lines after a headline start, on every side, so that a reader of mypy's output (the
checker, an editor) can take them apart again."""


class Rule(NamedTuple):
    """One rule: its code, a one-line title, why breaking it hurts jit, and the usual fix; an
    ``opt_in`` rule reports what may well be harmless as written, so only a project that selects
    it sees it (mypy's ``enable_error_code``, ``jaxtypes check --select``)."""

    code: str
    title: str
    why: str
    fix: str
    opt_in: bool = False

    def message(self, where: str, what: str, fix: str | None = None) -> Message:
        """The message: ``where`` the problem is and ``what`` it is make the headline
        (``SolverConfig.transport.fn holds a lambda``), then why it matters for jit and the fix;
        ``fix`` replaces the rule's usual fix where the situation calls for a more specific one."""
        return Message(self.code, f"{where} {what}", self.why, fix or self.fix)


# --- Fixes for particular cases, where the rule's usual fix does not fit -----------------------
# Every fix text jaxtypes gives lives here; ``phrases`` and ``libraries`` pick one, filling in the
# names in braces.

IDENTITY_HASH_FIX = (
    "make the class a @jaxtypes.static_dataclass (frozen, hashed by value), or give it __hash__ "
    "and __eq__ over its values and never mutate an instance"
)
"""An identity-hashed value outside jaxtypes' own classes (plain ``jax.jit``, other libraries'
static fields)."""

NOT_FROZEN_FIX = "make the dataclass frozen: @dataclasses.dataclass(frozen=True)"

ARRAY_ITEMS_FIX = "make it from Python numbers, tuple(a.tolist()), or pass the array in a traced position"

DECLARED_NOT_FROZEN_FIX = "remove frozen=False; change a static value with dataclasses.replace"

CHANGED_VALUE_FIX = (
    "never change a value jit has compiled for: build a new one (a frozen dataclass or a "
    "@jaxtypes.static_dataclass makes that the only way)"
)
"""A value that hashes by its contents and is changed after jit hashed it."""

BOUND_METHOD_FIX = "store the function {method} and pass the instance separately"

BOTH_MARKERS_FIX = "keep one marker: Static for hashable settings, Dynamic for arrays"

DYNAMIC_IN_STATIC_FIX = "move the field to a @jaxtypes.pytree_dataclass, which holds the dynamic part"

STATIC_VARIADIC_FIX = "give each static setting a parameter of its own, annotated Static[...]"

STATIC_CLASS_MARKED_DYNAMIC_FIX = (
    "drop Dynamic[...]: a static_dataclass parameter is passed to jit as a static argument"
)

STATIC_CLASS_TRACED_FIX = (
    "name the parameter in static_argnums/static_argnames (a static_dataclass hashes by value), "
    "or jit with @jaxtypes.jit, which makes it static from its type"
)

FUNCTION_ARGUMENT_FIX = (
    "pass the functions in a static position (static_argnums) or close over them, and pass only arrays to be traced"
)

TRACED_LEAF_FIX = (
    "pass it in a static position (static_argnames; a list as a tuple, a set as a frozenset), "
    "or leave it out of what jit traces: arrays, scalars and pytrees of them"
)

TEXT_FIELD_FIX = (
    "declare the field static (eqx.field(static=True), struct.field(pytree_node=False), a meta field), "
    "or jit with eqx.filter_jit, which holds leaves that are no arrays static"
)

HASHABLE_PARAMETER_FIX = "annotate the parameter Static[{spelling}]: it hashes by value, so jit can compile it in"

PLAIN_CLASS_SELF_FIX = (
    "decorate {class_name} with @jaxtypes.static_dataclass if its fields are settings "
    "(self becomes a static argument), or with @jaxtypes.pytree_dataclass if they hold "
    "arrays (self becomes a pytree); change an instance with dataclasses.replace"
)

CLASS_OBJECT_TRACED_FIX = (
    "mark the class static, @partial(jax.jit, static_argnums=0) under @classmethod (a class is "
    "one object: it hashes by identity, rightly), or make the method a @staticmethod"
)

STATIC_CLASS_SELF_TRACED_FIX = (
    "use @jaxtypes.jit (self becomes static), or mark it: @partial(jax.jit, static_argnums=0)"
)

LAX_TRACED_INTO_STATIC_FIX = (
    "pass {name!r} on as a traced argument (not in static_argnums/static_argnames), or, where each "
    "value needs its own program, loop in Python instead of {primitive}"
)

TRANSFORMED_INTO_STATIC_FIX = (
    "pass {name!r} on as a traced argument (not in static_argnums/static_argnames, nor in pytree "
    "metadata), or keep it out of what {primitive} traces (argnums, in_axes=None)"
)

PARTIAL_BINDS_STATIC_FIX = (
    "bind it with functools.partial and pass that function in a static position, or make the "
    "position traced in the function the Partial wraps"
)

NONDIFF_TRACER_FIX = (
    "drop the position from nondiff_argnums and pass the value as an ordinary argument (the rule "
    "may return None as its cotangent); keep nondiff_argnums for values jit cannot trace, such as "
    "functions"
)

TRACED_INTO_STATIC_FIX = (
    "mark {name!r} static where {function} is jitted too (static_argnums/static_argnames), or pass "
    "it on as a traced argument"
)

TRACED_BY_TRANSFORM_FIX = (
    "give the value where {transform} does not trace it (jax.make_jaxpr's own static_argnums, "
    "None in jax.vmap's in_axes, or functools.partial(f, value) as the function), or call the jitted "
    "function directly"
)

JITTED_IN_LOOP_FIX = (
    "jit it once, before the loop (or outside the function that runs again and again), "
    "and call that jitted function there"
)

AGREEMENT_ABSENT_FIX = (
    "call a function checked across processes on every process, in the same order, or "
    "give it check_static_agreement=False if only some processes call it; raise timeout_s "
    "if the processes reach it far apart"
)

# Other libraries' static fields: the fix for an array or pytree there, in each library's terms
# (``libraries.StaticMarker.make_dynamic``).

FLAX_STRUCT_DYNAMIC_FIX = "drop pytree_node=False, so that the field is a pytree node, which jit traces"
EQUINOX_DYNAMIC_FIX = "drop static=True, so that equinox makes the field a pytree leaf, which jit traces"
JAX_DATACLASS_DYNAMIC_FIX = (
    "declare it a data field (drop metadata={'static': True} or jax.tree.static(), or move it "
    "from meta_fields to data_fields), so that jit traces it"
)
JAX_STATIC_CLASS_DYNAMIC_FIX = (
    "register the class as a pytree (jax.tree_util.register_dataclass) with the arrays as data "
    "fields, instead of register_static"
)
JAX_DATACLASSES_DYNAMIC_FIX = "drop jdc.Static[...], so that the field is a pytree leaf, which jit traces"
JAXTYPES_DYNAMIC_FIX = "drop Static[...], so that the field is data, which jit traces"
PYTREE_METADATA_DYNAMIC_FIX = (
    "return the array among the children from the node's flatten function, not in its aux data"
)


UNHASHABLE_FIXES: dict[str, str] = {
    "list": "use a tuple instead of a list",
    "set": "use a frozenset instead of a set",
    "dict": "use a static_dataclass or a tuple of (key, value) pairs instead of a dict",
    "slice": "pass the slice's (start, stop, step) as a tuple, and build the slice inside the function",
}
"""The specific fix for each unhashable builtin, by class name."""

ADMITTED_UNHASHABLE_FIXES: dict[str, str] = {
    "list": "declare {hashable} (a tuple admits no list) and pass tuple(...) of the value",
    "set": "declare {hashable} and pass frozenset(...) of the value",
    "dict": "declare a hashable type (a static_dataclass, or a tuple of (key, value) pairs) and convert the value",
}
"""The fix for a declared collection type that admits an unhashable builtin (``Sequence[int]``
admits a list), by that builtin; ``{hashable}`` is the hashable type to declare instead."""

EQ_WITHOUT_HASH_FIX = (
    "give the class a __hash__ that agrees with its __eq__ (over values that never change), or "
    "make it a @jaxtypes.static_dataclass"
)


# --- The rules ------------------------------------------------------------------------------

STATIC_DYNAMIC_CHILD = Rule(
    "static-dynamic-child",
    "an array, tracer or pytree inside a static value",
    "jit hashes static arguments and compares pytree metadata with == to find compiled code, and "
    "an array is neither hashable nor comparable by value (a tracer fails, a shaped array's == is "
    "elementwise and has no truth value, a concrete array pins one buffer into the compiled code)",
    "move it into a @jaxtypes.pytree_dataclass data field or pass it as an ordinary argument, "
    "and keep only hashable settings static",
)

STATIC_UNHASHABLE = Rule(
    "static-unhashable",
    "an unhashable container inside a static value",
    "jit hashes static arguments to find compiled code, so an unhashable one fails at call "
    "time with 'Non-hashable static arguments are not supported'; pytree metadata must be "
    "hashable and immutable too, and a list or dict there can be changed in place after jit "
    "compiled for it (stale results)",
    "use a tuple instead of a list, a frozenset instead of a set, and a static_dataclass or a "
    "tuple of (key, value) pairs instead of a dict",
)

STATIC_IDENTITY_HASH = Rule(
    "static-identity-hash",
    "a static value that hashes by identity",
    "jit finds compiled code by a static value's hash and ==, so after the object is mutated "
    "jit silently reuses code compiled for its old contents (stale results), and every equal "
    "copy recompiles",
    "make its class a @jaxtypes.static_dataclass (frozen, hashed by value); if equal values of "
    "the class are always one object (it interns them, or is a singleton), declare it "
    "@jaxtypes.trusted_static or list it in the trusted_static_types setting",
)

STATIC_NOT_FROZEN = Rule(
    "static-not-frozen",
    "a static class that is not frozen",
    "a static value that can change after jit compiled code for it gives silently stale "
    "results, because jit does not look at it again once its hash matches",
    "make the class frozen: use @jaxtypes.static_dataclass without frozen=False, and inherit "
    "only from frozen dataclasses",
)

STATIC_BOUND_METHOD = Rule(
    "static-bound-method",
    "a bound method of an object that is no static value, inside a static value",
    "a bound method hashes and compares by the instance it is bound to, and this one is no "
    "static value: later changes to it are silently ignored (stale results), or every equal "
    "copy recompiles",
    "store the plain function `Class.method` and pass the instance separately",
)

STATIC_FRESH_CALLABLE = Rule(
    "static-fresh-callable",
    "a lambda, local function or jitted function made afresh inside a static value",
    "a lambda, a function defined inside a function or one jax.jit returns is a new object every "
    "time the code that makes it runs, and hashes by identity, so every rebuilt value recompiles",
    "define the function with `def` at module level (jit it once there) and pass or store that function",
)

STATIC_SUBCLASS = Rule(
    "static-subclass",
    "an undecorated subclass of a static dataclass",
    "it would inherit equality and hashing that ignore its own fields, so instances that "
    "differ in those fields share compiled code (stale results)",
    "decorate the subclass with @jaxtypes.static_dataclass as well",
)

MARKER_MISUSE = Rule(
    "marker-misuse",
    "Static[...] or Dynamic[...] where it has no meaning",
    "jaxtypes cannot honour the marker there, and a silently ignored marker makes jit treat "
    "the value differently from what the annotation says",
    "write the marker outermost, e.g. Static[Optional[int]] instead of Optional[Static[int]]",
)

JIT_METHOD_SELF = Rule(
    "jit-method-self",
    "jit on a method of a class that is neither static nor a pytree",
    "jit passes `self` like any other argument: an instance of a plain class is not a JAX "
    "type, and marked static it hashes by identity, so mutating it gives stale results",
    "decorate the class with @jaxtypes.static_dataclass (self becomes a static argument) or "
    "@jaxtypes.pytree_dataclass (self becomes a pytree of arrays)",
)

JIT_UNSUPPORTED_ARGUMENT = Rule(
    "jit-unsupported-argument",
    "a traced argument or parameter of a type jit cannot trace",
    "jit traces only arrays, scalars and pytrees of them, so any other leaf (a string, a device, "
    "an instance of a plain class, a function) fails inside jax with 'not a valid JAX type'",
    "make the class a @jaxtypes.pytree_dataclass or a @jaxtypes.static_dataclass",
)

JIT_BOUND_METHOD = Rule(
    "jit-bound-method",
    "jit of a bound method of a mutable object",
    "jit keys its cache on the bound method, not on the object's contents: later changes to "
    "the object are silently ignored (stale results), and each new obj.method jitted again "
    "traces and compiles again",
    "make the class a @jaxtypes.static_dataclass or @jaxtypes.pytree_dataclass, jit the "
    "method with @jaxtypes.jit, and change the object with dataclasses.replace",
)

JIT_UNRESOLVED_ANNOTATION = Rule(
    "jit-unresolved-annotation",
    "a jitted parameter's annotation cannot be resolved",
    "jaxtypes reads annotations to decide which arguments are static, and a name it cannot "
    "resolve leaves that undecided",
    "import the name at module level (a `TYPE_CHECKING`-only import is invisible at run time)",
)

JIT_DEVICE = Rule(
    "jit-device",
    "the requested device does not exist",
    "jit can only place the computation on a device that this process sees",
    "pick one of the devices listed, or install the jaxlib plugin for the platform you need",
)

JIT_RECOMPILE = Rule(
    "jit-recompile",
    "a jitted function recompiled for an equal static argument",
    "its hash differs from the equal value's, so jit cannot find the code it already compiled and compiles again",
    "make the argument's class a @jaxtypes.static_dataclass so equal values hash equal",
)

JIT_STATIC_DISAGREEMENT = Rule(
    "jit-static-disagreement",
    "a jitted call's static arguments differ between processes",
    "every process of a multi-process job must compile the same program, so processes whose "
    "static values differ compile different programs, and the first collective between them "
    "hangs or mixes their results",
    "build static values only from what every process shares (not a host name or path, an "
    "environment variable, the local device count, the time, or the order of a directory "
    "listing), or read them from one file every process loads",
)

JIT_STALE_STATIC = Rule(
    "jit-stale-static",
    "a jitted call reused code compiled for a static value that has changed since",
    "jit finds compiled code by a static value's hash and ==; a value changed in place still "
    "matches the key it was compiled under, so the call runs code built for the old value and "
    "returns a stale result without any error",
    CHANGED_VALUE_FIX,
)

JIT_STALE_GLOBAL = Rule(
    "jit-stale-global",
    "a jitted call reused code traced while a global or closure variable had another value",
    "tracing reads globals, closure variables and class attributes once and compiles their values "
    "in; jit's cache "
    "does not look at them again, so after one is rebound or changed in place calls still run "
    "the old value's code",
    "pass the value as an argument (traced, or static if it selects code), or call f.clear_cache() after changing it",
)

JIT_FRESH_FUNCTION = Rule(
    "jit-fresh-function",
    "one function definition jitted again and again as a new function object, each compiling",
    "jit caches compiled code per function object; a lambda, closure, partial or bound method "
    "made afresh (jax.jit inside a loop or a function body) is a new object every time, so "
    "every call traces and compiles from scratch",
    "jit once, outside the loop or function, and pass what varies as arguments",
)

JIT_COMPILE_BUDGET = Rule(
    "jit-compile-budget",
    "a jitted function compiled more often than its budget allows",
    "each compile costs seconds and keeps its code in memory; more compiles than expected "
    "means some argument changes shape, dtype or static value from call to call",
    "read each compile's reason below and keep that argument's shape, dtype or static value "
    "fixed, or raise the budget if the compiles are intended",
)

# --- The stricter verdicts: what may well be harmless as written -------------------------------
# A value that hashes or compares by identity, or holds what can change in place, goes wrong only
# if it changes after jit compiled for it or an equal one is built again; a 0-d array in metadata,
# only where it is compared while jit traces. Where the code shows none of that, the finding is
# one of these opt-in twins (``STRICT_TWINS``).

STATIC_IDENTITY_HASH_STRICT = Rule(
    "static-identity-hash-strict",
    "a value that hashes by identity where jit keys code on it, with no sign that it changes or is built again (opt-in)",
    "jit finds compiled code by the value's identity: an instance changed after jit compiled for "
    "it gives stale results, and an equal instance built again compiles again; this code shows "
    "neither, so the finding is reported only where a project selects it",
    IDENTITY_HASH_FIX,
    opt_in=True,
)

STATIC_UNHASHABLE_STRICT = Rule(
    "static-unhashable-strict",
    "an unhashable value in pytree metadata, with no sign that it is changed in place (opt-in)",
    "jit compares pytree metadata with == instead of hashing it, so an equal list or dict works "
    "call after call; JAX asks for hashable, immutable metadata because one changed in place "
    "after jit compiled for it gives stale results; this code changes none in place, so the "
    "finding is reported only where a project selects it",
    STATIC_UNHASHABLE.fix,
    opt_in=True,
)

STATIC_NOT_FROZEN_STRICT = Rule(
    "static-not-frozen-strict",
    "a dataclass that is not frozen in pytree metadata, with no sign that an instance changes (opt-in)",
    "jit compares pytree metadata with == instead of hashing it, so an equal instance works call "
    "after call; one changed after jit compiled for it gives stale results; this code changes "
    "none, so the finding is reported only where a project selects it",
    STATIC_NOT_FROZEN.fix,
    opt_in=True,
)

STATIC_FRESH_CALLABLE_STRICT = Rule(
    "static-fresh-callable-strict",
    "a callable made afresh in another library's static field or a plain jitted call's static position, "
    "made once as far as the code shows (opt-in)",
    "a function made inside a function (or by jax.jit) is a new object every time and compares by "
    "identity, so each value built again compiles again; this code makes it once, not again and "
    "again, so the finding is reported only where a project selects it",
    STATIC_FRESH_CALLABLE.fix,
    opt_in=True,
)

STATIC_DYNAMIC_CHILD_STRICT = Rule(
    "static-dynamic-child-strict",
    "an array or tracer where jit hashes or compares, which this code never makes fail (opt-in)",
    "jit compares pytree metadata with == instead of hashing it: a shaped array's == has no truth "
    "value, so it fails where another instance with its own arrays meets jit after this one, and "
    "a 0-d array compares as the number it holds, so it fails only where the comparison runs while "
    "jit traces (a jitted function called from another, a loop's carry); a jitted function's "
    "parameter passed on into a static position is a tracer only where a caller gives it a value "
    "(jit does not trace a default); this code shows none of these, so the finding is reported "
    "only where a project selects it",
    "make the field a data field so that jit traces it, or store a hashable value (the number "
    "itself, n, not jnp.array(n); a tuple)",
    opt_in=True,
)

JIT_FRESH_FUNCTION_STRICT = Rule(
    "jit-fresh-function-strict",
    "a function jitted afresh by every call of the function that makes and calls it, "
    "which no code shown calls again, or which calls it in a loop of its own (opt-in)",
    "jit caches compiled code per function object: each call of the function around it makes a "
    "new one, traced and compiled from scratch, so a caller that calls it again and again (an "
    "optimisation loop) compiles every time; this code shows no such caller, or each compile "
    "serves the calls of a loop of the function that makes it (a training run per data set), so "
    "the finding is reported only where a project selects it",
    JIT_FRESH_FUNCTION.fix,
    opt_in=True,
)

STRICT_TWINS: dict[Rule, Rule] = {
    STATIC_DYNAMIC_CHILD: STATIC_DYNAMIC_CHILD_STRICT,
    STATIC_IDENTITY_HASH: STATIC_IDENTITY_HASH_STRICT,
    STATIC_UNHASHABLE: STATIC_UNHASHABLE_STRICT,
    STATIC_NOT_FROZEN: STATIC_NOT_FROZEN_STRICT,
    STATIC_FRESH_CALLABLE: STATIC_FRESH_CALLABLE_STRICT,
    JIT_FRESH_FUNCTION: JIT_FRESH_FUNCTION_STRICT,
}
"""The opt-in twin of each rule whose finding needs evidence where the value is only compared
(pytree metadata), is a tracer only where a caller gives one, or is an identity that is right as
long as it is built once and never changed, or is a function jitted afresh by code that runs once
as far as the code shows."""

ALL_RULES: tuple[Rule, ...] = (
    STATIC_DYNAMIC_CHILD,
    STATIC_UNHASHABLE,
    STATIC_IDENTITY_HASH,
    STATIC_NOT_FROZEN,
    STATIC_BOUND_METHOD,
    STATIC_FRESH_CALLABLE,
    STATIC_SUBCLASS,
    MARKER_MISUSE,
    JIT_METHOD_SELF,
    JIT_UNSUPPORTED_ARGUMENT,
    JIT_BOUND_METHOD,
    JIT_UNRESOLVED_ANNOTATION,
    JIT_DEVICE,
    JIT_RECOMPILE,
    JIT_STATIC_DISAGREEMENT,
    JIT_STALE_STATIC,
    JIT_STALE_GLOBAL,
    JIT_FRESH_FUNCTION,
    JIT_COMPILE_BUDGET,
    STATIC_DYNAMIC_CHILD_STRICT,
    STATIC_IDENTITY_HASH_STRICT,
    STATIC_UNHASHABLE_STRICT,
    STATIC_NOT_FROZEN_STRICT,
    STATIC_FRESH_CALLABLE_STRICT,
    JIT_FRESH_FUNCTION_STRICT,
)

RULES_BY_CODE: dict[str, Rule] = {rule.code: rule for rule in ALL_RULES}

OPT_IN_CODES: frozenset[str] = frozenset(rule.code for rule in ALL_RULES if rule.opt_in)
