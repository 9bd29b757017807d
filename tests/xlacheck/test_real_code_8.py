"""Facts the value and context model learned from nine false findings on code nobody had tuned on
(branch tf-real8, docs/real-code-judgments-8.md). The rules' VALID examples hold the real forms;
these tests hold the other side: the same facts leave the true findings in place."""

from __future__ import annotations

from xlacheck.engine import check_source


def codes(source: str, *, preview: bool = False) -> list[tuple[int, str]]:
    result = check_source(source, "t.py", preview=preview)
    assert result.error is None, result.error
    return [(d.line, d.code) for d in result.diagnostics]


def test_a_tf1_op_under_tf_compat_v1_is_still_a_tensor() -> None:
    # tf.compat.v1 names the API table holds as ops stay ops; only classes, unknown returns and
    # names absent from TensorFlow 2.21 (estimator, flags) lose the tensor kind
    src = ("import tensorflow.compat.v1 as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
           "    return min(tf.reduce_sum(x), 1.0)\n")
    assert codes(src, preview=True) == [(4, "XLA103")]  # XLA103 runs with --preview


def test_an_item_of_a_compiled_call_argument_by_string_key_is_still_a_tensor() -> None:
    # a string key marks the parameter as a mapping, its item a tensor-or-structure: arithmetic on
    # it and builtins over it still prove a tensor
    src = ("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(features):\n"
           "    return min(features['ids'] * 2, 3)\n")
    assert codes(src, preview=True) == [(4, "XLA103")]  # XLA103 runs with --preview


def test_a_compare_of_a_string_tensor_from_an_op_is_still_a_tensor() -> None:
    src = ("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
           "    s = tf.strings.as_string(x)\n    return max(s == 'a', False)\n")
    assert (5, "XLA103") in codes(src, preview=True)


def test_range_of_a_python_int_still_unrolls() -> None:
    src = ("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, n: int):\n"
           "    for _ in range(n):\n        x = x / 2.0\n        if tf.reduce_max(x) < 1.0:\n"
           "            break\n    return x\n")
    assert codes(src) == [(7, "XLA110")]


def test_a_traced_argument_without_default_still_gives_a_traced_shape() -> None:
    src = ("import jax\nimport jax.numpy as jnp\ndef init(rng, dim, sizes=(4,)):\n"
           "    return jnp.zeros([dim]), [jnp.zeros([d]) for d in sizes]\ninit_fn = jax.jit(init)\n")
    assert codes(src) == [(4, "XLA207")]


def test_the_leaves_of_jax_tree_flatten_are_still_arrays() -> None:
    src = ("import jax\nimport numpy as np\n@jax.jit\ndef f(tree):\n"
           "    leaves, treedef = jax.tree.flatten(tree)\n    return np.argsort(leaves[0])\n")
    assert codes(src, preview=True) == [(6, "XLA304")]  # XLA304 runs with --preview


def test_a_list_grown_across_passes_is_still_reported() -> None:
    src = ("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef total(xs):\n    return jnp.sum(jnp.stack(xs))\n"
           "def run(batches):\n    xs = []\n    for b in batches:\n        xs.append(b)\n        print(total(xs))\n")
    # the list itself passed to jax.jit: its length is pytree structure, one finding (XLA422, by
    # default); XLA409 (--preview) keeps arrays grown in the loop and lists stacked into one
    assert [c for _, c in codes(src, preview=True)] == ["XLA422"]


def test_a_helper_called_by_name_in_a_loop_still_counts_as_called_per_step() -> None:
    # `x.run(...)` no longer counts as a call of a module-level `def run`; a call by name does
    src = ("import tensorflow as tf\n\n\ndef evaluate(model, x):\n    @tf.function\n    def step(v):\n"
           "        return model(v) + 1.0\n    return step(x)\n\n\ndef main(model, xs):\n    for x in xs:\n"
           "        evaluate(model, x)\n")
    result = check_source(src, "t.py", preview=True)
    assert [(d.line, d.code) for d in result.diagnostics] == [(5, "XLA404")]
