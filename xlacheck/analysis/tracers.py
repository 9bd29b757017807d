"""What proves that a value is a tracer where it is read (a JAX tracer under ``jax.jit``, a symbolic
tensor in a TensorFlow graph): the evidence the rules that fire by default need.

JAX. Under ``jax.jit`` every JAX operation is staged (omnistaging), so the result of any
``jnp``/``lax`` op is a tracer, even of constants (``jnp.zeros(2)``, ``jnp.arange(x.shape[0])``:
measured on jax 0.10.2, ``np.asarray`` of each raises TracerArrayConversionError). The value model
marks such results ``OP``. A parameter of a function that ``jax.jit`` (or a JAX transformation:
``lax.scan`` bodies, ``jax.grad``) traces directly is a tracer too, unless jit was told it is
static, or it has a default (a call that leaves it out gets the Python default, which jit never
sees); so is a helper's parameter that one call in such a function binds to a tracer. A call of a
function of the same file whose every ``return`` gives a JAX op's result (:func:`returns_jax_op`)
is a tracer too where it runs under ``jax.jit``: the value model marks it ``OP``.

TensorFlow. In a function a ``tf.function`` traces (decorated or wrapped, with or without
``jit_compile``, and what it calls) the result of a TensorFlow op is a symbolic tensor
(:func:`proven_symbolic`). A Keras method is not enough: a model only ever called eagerly runs its
``call`` on eager tensors.

Weaker evidence (a value some caller passes, a bare name of unknown origin, a declared root's
parameter) is not proof: ``XLA304`` reads it behind ``--preview``."""

from __future__ import annotations

import ast
from collections.abc import Callable

from xlacheck import api_table
from xlacheck.analysis.contexts import Certainty, FunctionInfo, FunctionNode, Level, ModuleFacts
from xlacheck.analysis.imports import AliasTable
from xlacheck.analysis.reductions import Assignments, own_returns_and_assignments
from xlacheck.analysis.scopes import own_nodes
from xlacheck.analysis.tables import FLAX_LINEN_MODULE, JAX_TREE_MAPS
from xlacheck.analysis.values import CONSTANT_FOLDING_COLLECTIVES, OP, PARAM, PYLIST, STAGED_PREFIXES, TENSOR

# Namespaces whose calls JAX stages under jax.jit: those the value model marks OP, and jax.random/jax.scipy
JAX_OP_PREFIXES = (*STAGED_PREFIXES, "jax.random.", "jax.scipy.")


def proven_tracer(expr: ast.expr, flags_of: Callable[[ast.expr], int], info: FunctionInfo,
                  facts: ModuleFacts | None = None, _depth: int = 0,
                  _assumed: frozenset[str] = frozenset()) -> str | None:
    """How ``expr`` (read in ``info``, whose value flags ``flags_of`` gives) is known to be a JAX tracer,
    for messages ("computed by a JAX op", "parameter `x` of a function jax.jit traces"), or None.
    ``facts``: the file's facts, to follow a helper's parameter to its callers (:func:`traced_parameter`).
    ``_assumed``: local names taken as tracers while proving their own bindings (``x = x + 1``), given
    as the empty evidence ``""``."""
    if not info.jax or info.certainty is not Certainty.COMPILED or _depth > 6:
        return None
    if isinstance(expr, ast.Name) and expr.id in _assumed:
        return ""
    flags = flags_of(expr)
    if flags & TENSOR and not flags & PYLIST:
        if flags & OP:
            return "computed by a JAX op"
        if isinstance(expr, ast.Name) and flags & PARAM and (found := _proven_name(expr.id, info, facts, 0, expr)):
            return found
    if operands := _arithmetic_operands(expr) or _comparison_operands(expr):
        sides = [proven_tracer(side, flags_of, info, facts, _depth + 1, _assumed) for side in operands]
        return next((found for found in sides if found), next((found for found in sides if found is not None), None))
    if isinstance(expr, ast.Name):
        return _proven_local(expr.id, flags_of, info, facts, _depth, _assumed)
    if isinstance(expr, ast.Subscript) and isinstance(expr.ctx, ast.Load) \
            and (found := proven_tracer(expr.value, flags_of, info, facts, _depth + 1, _assumed)) is not None:
        # an element or a slice of a traced array, a leaf of a traced pytree: jit traces every leaf
        return f"an item of a tracer: {found}" if found else found
    if isinstance(expr, ast.Subscript) and isinstance(expr.ctx, ast.Load) and facts is not None \
            and (found := _holds_tracers(expr.value, flags_of, info, facts, _depth + 1, _assumed)) is not None:
        return f"an element of {found}"
    if isinstance(expr, ast.Call) and facts is not None:
        if _jax_op(expr, facts.aliases, {}, 0):
            return "computed by a JAX op"  # jax.random draws, jax.scipy: staged under jax.jit like jnp
        if (found := _call_result(expr, None, flags_of, info, facts, _depth, _assumed)) is not None:
            return found
        if _flax_param(expr, info, facts):
            return "a parameter of a flax linen Module (self.param), traced by apply under jax.jit"
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and _array_method(expr.func.attr) \
            and (found := proven_tracer(expr.func.value, flags_of, info, facts, _depth + 1, _assumed)) is not None:
        # `v.mean()`, `v[1:].sum()`: a method of a tracer that is a jnp function of it (x.m() is jnp.m(x))
        return f"`.{expr.func.attr}()` of a tracer: {found}" if found else found
    # a leaf jax.tree.map hands its function (an array, whatever the value model knows), or an element of one
    base = expr
    while isinstance(base, ast.Subscript) and isinstance(base.ctx, ast.Load):
        base = base.value
    if isinstance(base, ast.Name) and facts is not None and base.id in _parameters(info, with_defaults=True) \
            and not _rebound(base.id, info) and _mapped_leaf(base.id, info, facts, 0):
        return f"`{base.id}`, a leaf jax.tree.map takes from traced arrays"
    return None


def _no_flags(expr: ast.expr) -> int:
    """No value flags: an expression of another function than the one the rule reads, proven by structure."""
    return 0


_ARRAY_COMPARISONS = (ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq, ast.NotEq)


def _comparison_operands(e: ast.expr) -> tuple[ast.expr, ...]:
    """The operands of one comparison that a JAX array defines (`v[0] > 1`, `loss == best`: a traced bool
    array when one side is a tracer); empty for chains, `is`, `in`, and comparisons with None or a string."""
    if not isinstance(e, ast.Compare) or len(e.ops) != 1 or not isinstance(e.ops[0], _ARRAY_COMPARISONS):
        return ()
    sides = (e.left, e.comparators[0])
    if any(isinstance(side, ast.Constant) and (side.value is None or isinstance(side.value, str)) for side in sides):
        return ()
    return sides


# JAX transformations whose transformed function, called, returns arrays (or tuples of them) computed from its
# traced arguments: under jax.jit every leaf is a tracer (jax.vjp/linearize also return a function: left out)
_ARRAY_RESULT_TRANSFORMS = frozenset({"jax.grad", "jax.value_and_grad", "jax.jacrev", "jax.jacfwd", "jax.jacobian",
                                      "jax.hessian", "jax.vmap"})
_TREE_LEAVES = frozenset({"jax.tree_util.tree_leaves", "jax.tree.leaves"})


def _holds_tracers(expr: ast.expr, flags_of: Callable[[ast.expr], int], info: FunctionInfo, facts: ModuleFacts,
                   depth: int, assumed: frozenset[str]) -> str | None:
    """``expr`` is a Python list or tuple whose elements are tracers (not a tracer itself: its truth value is
    its length): the leaves of a traced pytree (``jax.tree.leaves(params)``), the ``*args`` of a function
    JAX traces, a name bound once to one of those; how, for messages, else None."""
    if depth > 8:
        return None
    if isinstance(expr, ast.Call) and expr.args and facts.aliases.resolve(expr.func) in _TREE_LEAVES \
            and (found := proven_tracer(expr.args[0], flags_of, info, facts, depth + 1, assumed)) is not None:
        return f"the leaves of a traced pytree ({found})" if found else "the leaves of a traced pytree"
    if not isinstance(expr, ast.Name) or isinstance(info.node, ast.Lambda):
        return None
    vararg = info.node.args.vararg
    if vararg is not None and vararg.arg == expr.id and not _rebound(expr.id, info) and info.jax \
            and info.traced_args and not info.declared and not info.static_params_unknown and not info.static_params:
        return f"`*{expr.id}` of a function JAX traces"
    values = own_returns_and_assignments(info.node)[1].get(expr.id) or []
    if len(values) == 1 and values[0] is not None:
        return _holds_tracers(values[0], flags_of, info, facts, depth + 1, assumed)
    return None


def _other_bindings(fn: FunctionNode, name: str) -> list[tuple[ast.expr, int | None, str]]:
    """The bindings of ``name`` in ``fn`` that are not plain assignments, as (source, index, how): a name in a
    flat tuple target (``v, w = source``: index), a loop target (``for v in source``: None), a name in an
    ``enumerate``/``zip`` loop target (the iterated argument); empty when any other binding (``with``,
    ``:=``, a starred or nested target) binds it, so that no value goes unproven."""
    found: list[tuple[ast.expr, int | None, str]] = []
    for n in own_nodes(fn):
        if isinstance(n, ast.Assign) and not (len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)):
            for target in n.targets:
                if isinstance(target, (ast.Tuple, ast.List)) and any(
                        isinstance(e, ast.Name) and e.id == name for e in target.elts):
                    if any(isinstance(e, ast.Starred) for e in target.elts):
                        return []
                    index = next(i for i, e in enumerate(target.elts) if isinstance(e, ast.Name) and e.id == name)
                    found.append((n.value, index, "unpacked"))
                elif _binds_name(target, name):
                    return []
        elif isinstance(n, (ast.For, ast.AsyncFor)) and _binds_name(n.target, name):
            target, source = n.target, n.iter
            if isinstance(target, ast.Name):
                found.append((source, None, "iterated"))
                continue
            if not (isinstance(target, ast.Tuple) and isinstance(source, ast.Call) and isinstance(source.func, ast.Name)
                    and source.func.id in ("enumerate", "zip") and not source.keywords
                    and all(isinstance(e, ast.Name) for e in target.elts)):
                return []
            index = next(i for i, e in enumerate(target.elts) if isinstance(e, ast.Name) and e.id == name)
            if source.func.id == "enumerate":
                if index != 1 or len(source.args) != 1:
                    return []
                found.append((source.args[0], None, "iterated"))
            elif index < len(source.args) and not isinstance(source.args[index], ast.Starred):
                found.append((source.args[index], None, "iterated"))
            else:
                return []
        elif isinstance(n, (ast.With, ast.AsyncWith, ast.NamedExpr, ast.AugAssign, ast.AnnAssign)) and any(
                _binds_name(t, name) for t in ([i.optional_vars for i in n.items if i.optional_vars is not None]
                                               if isinstance(n, (ast.With, ast.AsyncWith)) else [n.target])):
            if not isinstance(n, (ast.AugAssign, ast.AnnAssign)):
                return []
    return found


def _binds_name(target: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load) for n in ast.walk(target))


def _element_tracer(source: ast.expr, index: int | None, how: str, flags_of: Callable[[ast.expr], int],
                    info: FunctionInfo, facts: ModuleFacts, depth: int, assumed: frozenset[str]) -> str | None:
    """An element of ``source`` (``index``: of a tuple it is unpacked from; None: any element a loop takes)
    is a tracer: an element of a tracer or of a traced pytree (jit traces every leaf; a loop carry), of the
    leaves of one, of a JAX op's result (``key, sub = jax.random.split(key)``), of a transformed function's
    result (``loss, grads = jax.value_and_grad(f)(p, x)``), or the element a same-file function returns
    at that position from tracers."""
    if depth > 8:
        return None
    if (found := proven_tracer(source, flags_of, info, facts, depth + 1, assumed)) is not None:
        return f"{how} from a tracer: {found}" if found else found
    if (found := _holds_tracers(source, flags_of, info, facts, depth + 1, assumed)) is not None:
        return f"{how} from {found}"
    if not isinstance(source, ast.Call):
        return None
    f = source.func
    if isinstance(f, ast.Call) and f.args and facts.aliases.resolve(f.func) in _ARRAY_RESULT_TRANSFORMS \
            and not any(kw.arg == "has_aux" or kw.arg is None for kw in f.keywords):
        return f"{how} from the result of {facts.aliases.resolve(f.func)}"
    if index is not None:
        return _call_result(source, index, flags_of, info, facts, depth, assumed)
    return None


def _call_result(call: ast.Call, index: int | None, flags_of: Callable[[ast.expr], int], info: FunctionInfo,
                 facts: ModuleFacts, depth: int, assumed: frozenset[str]) -> str | None:
    """``call`` runs a function of this file (``index``: the ``index``-th element of a tuple it returns) that
    gives a tracer at every ``return`` from what this call passes it: arithmetic on, an item or a method
    of a parameter this call binds to a tracer, or a JAX op's result (staged: the callee runs in the caller's
    trace). How, for messages, else None."""
    if depth > 4 or any(isinstance(a, ast.Starred) for a in call.args) or any(kw.arg is None for kw in call.keywords):
        return None
    found = facts.callee(call, info)
    if found is None or found[0] is info:
        return None
    callee, on_self = found
    node = callee.node
    if isinstance(node, ast.Lambda) or any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in own_nodes(node)):
        return None
    returns, assigned = own_returns_and_assignments(node)
    if not returns:
        return None
    params = [a.arg for a in node.args.posonlyargs + node.args.args]
    positional = params[1:] if on_self or (callee.cls is not None and params[:1] in (["self"], ["cls"])) else params
    bound: dict[str, ast.expr] = dict(zip(positional, call.args))
    bound.update((kw.arg, kw.value) for kw in call.keywords if kw.arg is not None)
    every_param = set(params) | {a.arg for a in node.args.kwonlyargs}

    def given(e: ast.expr, steps: int) -> bool:
        if steps > 8:
            return False
        if isinstance(e, ast.Name):
            if e.id in every_param:
                arg = bound.get(e.id)
                return arg is not None and not _rebound(e.id, callee) \
                    and proven_tracer(arg, flags_of, info, facts, depth + 1, assumed) is not None
            values = assigned.get(e.id) or []
            return bool(values) and all(v is not None and given(v, steps + 1) for v in values)
        if operands := _arithmetic_operands(e) or _comparison_operands(e):
            return any(given(side, steps + 1) for side in operands)
        if isinstance(e, ast.Subscript) and isinstance(e.ctx, ast.Load):
            return given(e.value, steps + 1)
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and _array_method(e.func.attr):
            return given(e.func.value, steps + 1)
        return _jax_op(e, facts.aliases, assigned, 0)

    for r in returns:
        value = r.value
        if index is not None:
            if not isinstance(value, ast.Tuple) or index >= len(value.elts) \
                    or any(isinstance(e, ast.Starred) for e in value.elts):
                return None
            value = value.elts[index]
        if value is None or not given(value, 0):
            return None
    return f"returned by {callee.name}() from tracers"


def _array_method(name: str) -> bool:
    """``x.<name>(...)`` of a JAX array is ``jnp.<name>(x, ...)`` and the table says that returns an array."""
    fact = api_table.fact_for(f"jnp.{name}") if name in api_table.jax_array_methods() else None
    return fact is not None and fact.is_tensor_valued


def _proven_local(name: str, flags_of: Callable[[ast.expr], int], info: FunctionInfo, facts: ModuleFacts | None,
                  depth: int, assumed: frozenset[str]) -> str | None:
    """A name ``info`` binds, every binding of which is a proven tracer, taking the name itself as one
    inside its own bindings (by induction: ``angles = state["angles"] + 0.05 * action``; ``x = jnp.zeros(3)``
    then ``x = x + 1``); a parameter also needs a tracer on entry (a parameter JAX traces, rebound
    ``qpos = qpos + 0.01 * qvel``). Tuple unpacking, loop targets and other bindings are no proof."""
    params = _parameters(info, with_defaults=True)
    node = info.node
    if name in params and not _rebound(name, info):
        # a parameter the value model leaves unknown (a leaf jax.tree.map hands a module-level function, a
        # parameter of an enclosing function read by structure alone), unless a type test dispatches on it
        if flags_of is _no_flags or flags_of(ast.Name(id=name, ctx=ast.Load())) == 0 and not _type_tested(name, node):
            return _proven_name(name, info, facts, 0)
        return None
    if isinstance(node, ast.Lambda) or name in params and not _traced_on_entry(name, info, facts):
        return None
    values = own_returns_and_assignments(node)[1].get(name) or []
    if not values:
        if facts is not None and name not in params and info.parent is not None and not _rebound(name, info):
            # a free variable: what the enclosing function binds it to (read there by structure alone)
            outer = _proven_local(name, _no_flags, info.parent, facts, depth + 1, frozenset())
            return f"{outer} (read in a nested function)" if outer else None
        return None
    others = _other_bindings(node, name) if None in values else []
    found: str | None = None
    for value in values:
        if value is None:
            if not others or facts is None:
                return None
            continue
        evidence = proven_tracer(value, flags_of, info, facts, depth + 1, assumed | {name})
        if evidence is None:
            return None
        found = found or evidence
    for source, index, how in others:
        evidence = _element_tracer(source, index, how, flags_of, info, facts, depth + 1, assumed | {name}) \
            if facts is not None else None
        if evidence is None:
            return None
        found = found or evidence
    if name in params:
        return f"parameter `{name}` of a function JAX traces, rebound to arithmetic on tracers"
    return f"`{name}`, computed from a tracer: {found}" if found else None


def _type_tested(name: str, fn: FunctionNode) -> bool:
    """``fn`` tests ``isinstance(name, ...)``: it dispatches on what the value is (a tracer or not)."""
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "isinstance" and n.args
               and isinstance(n.args[0], ast.Name) and n.args[0].id == name for n in own_nodes(fn))


def _traced_on_entry(name: str, info: FunctionInfo, facts: ModuleFacts | None) -> bool:
    """The parameter ``name`` holds a tracer when ``info`` starts, whatever the body binds to it later: JAX
    traces it, a traced caller of this file passes it one, or jax.tree.map hands it a traced leaf."""
    if traced_parameter(name, info, rebound_ok=True):
        return True
    return facts is not None and (_passed_a_tracer(name, info, facts, 0, on_entry=True)
                                  or _mapped_leaf(name, info, facts, 0))


def _proven_name(name: str, info: FunctionInfo, facts: ModuleFacts | None, depth: int,
                 read: ast.AST | None = None) -> str | None:
    """How the name ``name`` read in ``info`` is a proven tracer: a parameter JAX traces, a helper's
    parameter a traced function passes a tracer, a leaf a ``jax.tree.map`` hands its function from a
    tree of tracers, or the same as an enclosing function's (a closure's free variable); else None."""
    if depth > 3:
        return None
    if name in _parameters(info, with_defaults=True):
        if traced_parameter(name, info, read):
            return f"parameter `{name}` of a function JAX traces"
        if facts is not None and _passed_a_tracer(name, info, facts, 0, read):
            return f"parameter `{name}`, which a function JAX traces passes a tracer"
        if facts is not None and not _rebound(name, info) and _mapped_leaf(name, info, facts, depth):
            return f"`{name}`, a leaf jax.tree.map takes from traced arrays"
        return None
    if info.parent is None or _rebound(name, info):
        return None
    found = _proven_name(name, info.parent, facts, depth + 1)  # a free variable: the enclosing function's
    return f"{found} (read in a nested function)" if found is not None else None


def _mapped_leaf(name: str, info: FunctionInfo, facts: ModuleFacts, depth: int) -> bool:
    """``info`` is the function a ``jax.tree.map``-like call hands leaves (``tree_map(lambda x: ..., xs)`` in
    its enclosing function, ``tree_map(scale, params)`` with a function of this file in a traced function),
    and the tree that fills ``name`` is a proven tracer there."""
    node = info.node
    params = [a.arg for a in node.args.posonlyargs + node.args.args]
    if name not in params or depth > 3:
        return False  # a keyword-only parameter: tree.map passes leaves by position
    parents = [info.parent] if info.parent is not None and not isinstance(info.parent.node, ast.Lambda) else []
    if not isinstance(node, ast.Lambda):
        parents += [f for f in facts.functions if f is not info.parent and f.jax
                    and f.certainty is Certainty.COMPILED and not isinstance(f.node, ast.Lambda)]
    for parent, call in ((p, c) for p in parents for c in own_nodes(p.node)):
        if not (isinstance(call, ast.Call) and call.args and facts.aliases.resolve(call.func) in JAX_TREE_MAPS):
            continue
        fn = call.args[0]
        if not (fn is node or isinstance(fn, ast.Name) and not isinstance(node, ast.Lambda) and fn.id == node.name
                and (parent is info.parent or _names_function(fn, parent, info, facts))):
            continue
        offset = 1 if (facts.aliases.resolve(call.func) or "").endswith("with_path") else 0  # (path, *leaves)
        index = params.index(name) - offset
        if index < 0 or 1 + index >= len(call.args) or isinstance(call.args[1 + index], ast.Starred):
            continue
        tree = call.args[1 + index]
        assigned = {} if isinstance(parent.node, ast.Lambda) else own_returns_and_assignments(parent.node)[1]
        if _jax_op(tree, facts.aliases, assigned, 0):
            return True
        if isinstance(tree, ast.Name) and _proven_name(tree.id, parent, facts, depth + 1) is not None:
            return True
    return False


def _flax_param(call: ast.Call, info: FunctionInfo, facts: ModuleFacts) -> bool:
    """``self.param(name, init, ...)`` in a method of a flax linen Module of this file (or of a class derived
    here from one): ``Module.apply`` passes the parameters in, so under jax.jit it returns a tracer."""
    f = call.func
    if not (isinstance(f, ast.Attribute) and f.attr == "param" and isinstance(f.value, ast.Name)
            and f.value.id == "self" and call.args):
        return False
    cls, seen = info.cls, set()
    while cls is not None and cls.node.name not in seen:
        seen.add(cls.node.name)
        if FLAX_LINEN_MODULE in cls.bases:
            return True
        cls = next((facts.classes_by_name[b] for b in cls.bases if b in facts.classes_by_name), None)
    return False


def _names_function(ref: ast.Name, caller: FunctionInfo, info: FunctionInfo, facts: ModuleFacts) -> bool:
    """``ref``, read in ``caller``, is the function ``info``."""
    found = facts.callee(ast.Call(func=ref, args=[], keywords=[]), caller)
    return found is not None and found[0] is info


def proven_symbolic(flags: int, info: FunctionInfo) -> str | None:
    """How a value with ``flags`` read in TensorFlow code ``info`` is known to be a symbolic tensor,
    for messages, or None: a TensorFlow op's result in a function traced into a graph by a
    ``tf.function`` (level CERTAIN or GRAPH), not only a Keras method."""
    if info.jax or info.certainty is not Certainty.COMPILED or info.level not in (Level.CERTAIN, Level.GRAPH):
        return None
    if not flags & TENSOR or flags & PYLIST or not flags & OP:
        return None
    return "computed by a TensorFlow op"


def traced_parameter(name: str, info: FunctionInfo, read: ast.AST | None = None, *,
                     rebound_ok: bool = False) -> bool:
    """``name`` is a parameter that a JAX tracer fills in ``info`` (a ``jax.jit`` target, a JAX
    transformation's function): not static, no default, not ``self``, never rebound in the body
    (``rebound_ok``: on entry, whatever the body binds to it later)."""
    if not (info.jax and info.traced_args) or info.declared or info.static_params_unknown:
        return False
    if name in info.static_params:
        return False
    return name in _parameters(info, with_defaults=False) and (rebound_ok or not _rebound(name, info, read))


def _parameters(info: FunctionInfo, *, with_defaults: bool) -> list[str]:
    """``info``'s named parameters in order (not ``self``/``cls``, ``*args``, ``**kwargs``), without
    those that have a default unless ``with_defaults``."""
    args = info.node.args
    positional = args.posonlyargs + args.args
    defaulted = {a.arg for a in positional[len(positional) - len(args.defaults):]} if args.defaults else set()
    defaulted |= {a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None}
    return [a.arg for a in positional + args.kwonlyargs
            if a.arg not in ("self", "cls") and (with_defaults or a.arg not in defaulted)]


def _rebound(name: str, info: FunctionInfo, read: ast.AST | None = None) -> bool:
    """``info`` binds ``name`` anew (an assignment, a loop target, ``global``/``nonlocal``). With
    ``read``, only where that can change what ``read`` sees: before its line, or in a loop around it
    (``x = np.asarray(x)`` reads the parameter)."""
    node = info.node
    body = [node.body] if isinstance(node, ast.Lambda) else node.body
    loops = [n for stmt in body for n in ast.walk(stmt) if isinstance(n, (ast.For, ast.While, ast.AsyncFor))
             and read is not None and any(sub is read for sub in ast.walk(n))]
    for stmt in body:
        for sub in ast.walk(stmt):
            if isinstance(sub, (ast.Global, ast.Nonlocal)) and name in sub.names:
                return True
            if isinstance(sub, ast.Name) and sub.id == name and not isinstance(sub.ctx, ast.Load):
                if read is None or sub.lineno < getattr(read, "lineno", 0) or any(
                        any(x is sub for x in ast.walk(loop)) for loop in loops):
                    return True
    return False


def _passed_a_tracer(name: str, info: FunctionInfo, facts: ModuleFacts, depth: int,
                     read: ast.AST | None = None, *, on_entry: bool = False) -> bool:
    """A call in a function of this file that JAX traces binds the helper ``info``'s parameter
    ``name`` (never rebound in it) to a proven tracer: that function's own traced parameter, a JAX
    op's result (directly or through a name every assignment of which is one), or, at most two
    calls up, a parameter it was itself passed a tracer for. One such call is enough: where it
    runs, the helper gets a tracer."""
    node = info.node
    if depth > 2 or isinstance(node, ast.Lambda) or name not in _parameters(info, with_defaults=True) \
            or not on_entry and _rebound(name, info, read):
        return False
    params = [a.arg for a in node.args.posonlyargs + node.args.args]
    for caller in facts.functions:
        if not caller.jax or caller.certainty is not Certainty.COMPILED:
            continue
        assigned: Assignments | None = None
        for call in own_nodes(caller.node):
            if not isinstance(call, ast.Call):
                continue
            found = facts.callee(call, caller)
            if found is None or found[0] is not info:
                continue
            positional = params[1:] if found[1] or (info.cls is not None and params[:1] in (["self"], ["cls"])) \
                else params
            bound = dict(zip(positional, call.args)) if not any(isinstance(a, ast.Starred) for a in call.args) else {}
            bound.update((kw.arg, kw.value) for kw in call.keywords if kw.arg is not None)
            arg = bound.get(name)
            if arg is None:
                continue
            if assigned is None:
                assigned = {} if isinstance(caller.node, ast.Lambda) else own_returns_and_assignments(caller.node)[1]
            if _tracer_argument(arg, caller, facts, assigned, depth):
                return True
    return False


def _tracer_argument(arg: ast.expr, caller: FunctionInfo, facts: ModuleFacts, assigned: Assignments,
                     depth: int, steps: int = 0) -> bool:
    """``arg``, an argument of a call in ``caller`` (which JAX traces), is a tracer there: a JAX op's
    result (directly or through a name every assignment of which is one), ``caller``'s own traced
    parameter or one it was passed a tracer for (:func:`_passed_a_tracer`, ``depth`` calls up), an
    element of one (``params[0]``: an element of a traced array, or a leaf of a traced pytree), or
    arithmetic with one (``state["angles"] + 0.05 * action``)."""
    if steps > 6:
        return False
    if _jax_op(arg, facts.aliases, assigned, 0):
        return True
    if isinstance(arg, ast.Name):
        if arg.id in _parameters(caller, with_defaults=True):
            return traced_parameter(arg.id, caller, arg) or _passed_a_tracer(arg.id, caller, facts, depth + 1, arg) \
                or not _rebound(arg.id, caller, arg) and _mapped_leaf(arg.id, caller, facts, depth + 1)
        values = assigned.get(arg.id) or []
        return bool(values) and all(v is not None and _tracer_argument(v, caller, facts, assigned, depth, steps + 1)
                                    for v in values)
    if isinstance(arg, ast.Subscript) and isinstance(arg.ctx, ast.Load):
        return _tracer_argument(arg.value, caller, facts, assigned, depth, steps + 1)
    return any(_tracer_argument(side, caller, facts, assigned, depth, steps + 1) for side in _arithmetic_operands(arg))


def _arithmetic_operands(e: ast.expr) -> tuple[ast.expr, ...]:
    """The operands of Python arithmetic whose result is a tracer when one of them is (`theta * 2.0`, `-x`,
    `a + b`: JAX arrays define the operators; `%` and `not` are left out); empty for anything else."""
    if isinstance(e, ast.BinOp) and not isinstance(e.op, ast.Mod):
        return e.left, e.right
    if isinstance(e, ast.UnaryOp) and not isinstance(e.op, ast.Not):
        return (e.operand,)
    return ()


def jax_op_functions(functions: list[FunctionInfo], aliases: AliasTable) -> frozenset[str]:
    """Module-level functions and methods (keyed ``Class.method``, as ``values.Reducers``) for which
    :func:`returns_jax_op` holds: under jax.jit a call of one gives a tracer."""
    found = set()
    for info in functions:
        node = info.node
        if info.parent is None and isinstance(node, ast.FunctionDef) and returns_jax_op(node, aliases):
            found.add(info.qualname)
    return frozenset(found)


def returns_jax_op(fn: ast.FunctionDef | ast.AsyncFunctionDef, aliases: AliasTable) -> bool:
    """Every ``return`` of ``fn`` (one at least) gives one JAX array computed by a JAX op: a call the
    JAX table records returning arrays (``jnp.stack([x, y])``, ``jax.nn.relu(h)``), arithmetic with
    one (``l1 * jnp.cos(q) + 1``), or a name every assignment of which is one."""
    returns, assigned = own_returns_and_assignments(fn)
    return bool(returns) and all(r.value is not None and _jax_op(r.value, aliases, assigned, 0) for r in returns)


def _jax_op(e: ast.expr, aliases: AliasTable, assigned: Assignments, depth: int) -> bool:
    if depth > 8:
        return False
    if isinstance(e, ast.Call):
        name = aliases.resolve(e.func)
        if name in CONSTANT_FOLDING_COLLECTIVES and e.args and isinstance(e.args[0], ast.Constant):
            return False  # psum(1, axis): the axis size as a Python int (values.CONSTANT_FOLDING_COLLECTIVES)
        fact = api_table.fact_for(name) if name is not None and name.startswith(JAX_OP_PREFIXES) else None
        return fact is not None and fact.is_tensor_valued
    if isinstance(e, ast.BinOp) and not isinstance(e.op, (ast.MatMult, ast.Mod)):
        return _jax_op(e.left, aliases, assigned, depth + 1) or _jax_op(e.right, aliases, assigned, depth + 1)
    if isinstance(e, ast.BinOp):
        return _jax_op(e.left, aliases, assigned, depth + 1) and _jax_op(e.right, aliases, assigned, depth + 1)
    if isinstance(e, ast.UnaryOp) and not isinstance(e.op, ast.Not):
        return _jax_op(e.operand, aliases, assigned, depth + 1)
    if isinstance(e, ast.Name):
        values = assigned.get(e.id) or []
        return bool(values) and all(v is not None and _jax_op(v, aliases, assigned, depth + 1) for v in values)
    return False
