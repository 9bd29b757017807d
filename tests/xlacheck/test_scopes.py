"""The shared scope and binding model (analysis/scopes.py) that ModuleIndex and Source build on."""

from __future__ import annotations

import ast

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
