"""The shared scope and binding model (analysis/scopes.py) that ModuleIndex and Source build on."""

from __future__ import annotations

import ast

import pytest

from xlacheck.analysis.scopes import ScopeTree, own_nodes, own_nodes_in_loops

SOURCE = """\
import tensorflow as tf
RATE = 0.5

class Model:
    scale = 2

    def call(self, x, n=3):
        y = x * RATE
        for i in range(n):
            y += i
        total: float = 0.0
        squares = [j * j for j in range(n)]
        def inner():
            nonlocal total
            return y
        return y
"""


def _tree() -> tuple[ScopeTree, ast.FunctionDef]:
    tree = ast.parse(SOURCE)
    scopes = ScopeTree(tree)
    method = tree.body[2].body[1]  # type: ignore[attr-defined]
    return scopes, method


def test_scope_of_skips_class_bodies_and_enclosing_scope_does_not() -> None:
    scopes, method = _tree()
    cls = scopes.tree.body[2]
    scale = cls.body[0]  # type: ignore[attr-defined]
    assert scopes.scope_of(scale) is scopes.tree  # a class body is not a function scope
    assert scopes.enclosing_scope(scale) is cls
    assert scopes.function_of(scale) is None
    first = method.body[0]
    assert scopes.scope_of(first.value) is method and scopes.statement_of(first.value) is first
    assert [type(a).__name__ for a in scopes.ancestors(first.value)][:3] == ["Assign", "FunctionDef", "ClassDef"]


def test_own_bindings_list_the_binding_statements_of_the_scope_body_only() -> None:
    scopes, method = _tree()
    bindings = scopes.own_bindings(method)
    assert [type(b).__name__ for b in bindings["y"]] == ["Assign", "AugAssign"]
    assert [type(b).__name__ for b in bindings["i"]] == ["For"]
    assert [type(b).__name__ for b in bindings["total"]] == ["AnnAssign"]
    assert "j" not in bindings and scopes.comprehension_names(method) == frozenset({"j"})


def test_bound_before_follows_parameters_stores_closures_and_module_names() -> None:
    scopes, method = _tree()
    inner = method.body[4]
    ret = inner.body[1].value  # `return y` inside inner()
    assert scopes.bound_before("y", ret)  # a closure variable of call()
    assert scopes.bound_before("total", ret)  # nonlocal
    assert scopes.bound_before("RATE", ret)  # a module binding
    assert not scopes.bound_before("undefined", ret)
    first = method.body[0]
    assert scopes.bound_before("n", first) and not scopes.bound_before("squares", first)
    assert scopes.local_binding("squares", method.body[5].value) is not None
    rate = first.value.right
    assert isinstance(scopes.module_constant(rate), ast.Constant)


def test_the_walk_skips_contexts_and_operators_but_keeps_import_aliases() -> None:
    scopes, _ = _tree()
    kinds = {type(n) for n in scopes.nodes}
    assert ast.alias in kinds and ast.arg in kinds and ast.Name in kinds
    assert not kinds & {ast.Load, ast.Store, ast.Mult, ast.Add}


def test_own_nodes_stops_at_nested_scopes_and_tracks_the_loops_around_each_node() -> None:
    tree = ast.parse(
        "@deco\ndef f(a=k):\n"
        "    for i in r:\n        while i:\n            continue\n"
        "    def g():\n        return 1\n"
        "    return a\n")
    f = tree.body[0]
    names = {n.id for n in own_nodes(f) if isinstance(n, ast.Name)}
    assert names == {"i", "r", "a"}  # not the decorator, the default, nor g's body
    assert {"deco", "k"} <= {n.id for n in own_nodes(f, include_signature=True) if isinstance(n, ast.Name)}
    returns = [n for n in own_nodes(f) if isinstance(n, ast.Return)]
    assert [r.lineno for r in returns] == [8]
    (cont, loops), = [(n, loops) for n, loops in own_nodes_in_loops(f) if isinstance(n, ast.Continue)]
    assert [type(loop).__name__ for loop in loops] == ["For", "While"]
    loop = f.body[0]
    assert not [n for n, inner in own_nodes_in_loops(loop) if isinstance(n, ast.Continue) and not inner]


def test_straight_line_binding_takes_the_last_assignment_and_gives_up_on_loop_rebinding() -> None:
    source = (
        "def f(make):\n"
        "    ds = make()\n"
        "    ds = ds.batch(4)\n"
        "    for x in ds:\n"
        "        pass\n"
        "    for x in ds:\n"
        "        ds = ds.shuffle(2)\n"
    )
    tree = ast.parse(source)
    scopes = ScopeTree(tree)
    uses = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == "ds" and isinstance(n.ctx, ast.Load)]
    first_loop = next(u for u in uses if u.lineno == 4)
    bound = scopes.straight_line_binding(first_loop)
    assert isinstance(bound, ast.Call) and ast.unparse(bound) == "ds.batch(4)"
    # the second loop rebinds `ds` in its body: its next iteration reads `ds.shuffle(2)`
    assert scopes.straight_line_binding(next(u for u in uses if u.lineno == 6)) is not None
    inner = next(u for u in uses if u.lineno == 7)
    assert scopes.straight_line_binding(inner) is None


def test_bound_names_is_what_a_scope_binds_itself() -> None:
    """One home for "the names a function binds" (XLA418, XLA309's module instances, BuiltValues.bound)."""
    from xlacheck.analysis.scopes import bound_names, built_values

    tree = ast.parse(
        "def f(a, /, b, *c, d, **e):\n"
        "    global g\n"
        "    g = 1\n"
        "    x = 2\n"
        "    for i in range(3):\n"
        "        del x\n"
        "    with open(a) as fh:\n"
        "        (y := 4)\n"
        "    def inner(p):\n"
        "        q = p\n"
        "    return [z for z in c]\n"
    )
    f = tree.body[0]
    # not g (declared global), not inner's p/q; a comprehension's target counts (own_nodes enters it)
    own = {"a", "b", "c", "d", "e", "x", "i", "fh", "y", "z"}
    assert bound_names(f) == own
    assert bound_names(f, nested=True) == own | {"q"}  # what ast.walk meets: nested stores, not their parameters
    assert built_values(f).bound == own
    assert bound_names(f) is bound_names(f)  # kept per node: rules ask at every call they check
    assert bound_names(tree.body) == set()  # a module's statements: only what they store


def test_the_jax_shape_tables_name_real_jax_functions() -> None:
    """Each name of the hand-kept JAX tables (analysis/tables.py) is a function of the installed JAX,
    and the reductions the masked rewrite writes with ``where=`` take that keyword."""
    import importlib
    import inspect

    jnp = pytest.importorskip("jax.numpy")
    from xlacheck.analysis.tables import JAX_ELEMENTWISE, JAX_REDUCTIONS, JAX_SHAPE_PRESERVING
    from xlacheck.rewrites.jax_masks import _REDUCTIONS

    for name in sorted(set(JAX_ELEMENTWISE) | JAX_SHAPE_PRESERVING):
        module, _, attr = name.rpartition(".")
        assert callable(getattr(importlib.import_module(module), attr, None)), name
    modules = [importlib.import_module(m) for m in ("jax.numpy", "jax.nn", "jax.scipy.special")]
    for short in JAX_REDUCTIONS:
        assert any(callable(getattr(m, short, None)) for m in modules), short
    assert _REDUCTIONS <= JAX_REDUCTIONS
    for short in _REDUCTIONS:
        assert "where" in inspect.signature(getattr(jnp, short)).parameters, short


def test_a_module_constant_unpacked_from_a_tuple_display_is_its_item() -> None:
    tree = ast.parse("T0, TF, DT = 0.0, 1.0, 0.1\n[A, *B] = 1, 2, 3\nC, D = pair\n\n\ndef f():\n"
                     "    return T0 + TF + DT + A + C\n")
    scopes = ScopeTree(tree)
    reads = {n.id: n for n in ast.walk(tree.body[-1]) if isinstance(n, ast.Name)}
    values = [scopes.literal_of(reads[k]) for k in ("T0", "TF", "DT")]
    assert [v.value for v in values if isinstance(v, ast.Constant)] == [0.0, 1.0, 0.1]
    assert scopes.literal_of(reads["A"]) is None  # a starred target: no item per name
    assert scopes.literal_of(reads["C"]) is None  # unpacked from a value that is no display
