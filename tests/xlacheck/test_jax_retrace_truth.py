"""The JAX recompile rules against JAX itself: each snippet is flagged by the rule, and running it
shows the behaviour the message claims (one compile per call, per value, per shape, or an error).
Skipped without JAX."""

from __future__ import annotations

import os
from typing import Any

import pytest

os.environ.setdefault("JAX_PLATFORMS", "cpu")
jax = pytest.importorskip("jax")
np = pytest.importorskip("numpy")

from xlacheck.engine import check_source  # noqa: E402


def _codes(src: str, *, preview: bool = False) -> set[str]:
    result = check_source(src, "case.py", preview=preview)
    assert result.error is None, result.error
    return {d.code for d in result.diagnostics}


def _run(src: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {}
    exec(compile(src, "case.py", "exec"), namespace)  # noqa: S102 - our own snippet
    return namespace


def test_partial_jitted_per_iteration_traces_every_time():
    src = ("import jax\nimport jax.numpy as jnp\nfrom functools import partial\nTRACES = []\n"
           "def _loss(scale, x):\n    TRACES.append(1)\n    return (x * scale).sum()\n"
           "def evaluate(batches):\n    return [jax.jit(partial(_loss, 2.0))(x) for x in batches]\n")
    assert "XLA404" in _codes(src)
    ns = _run(src)
    ns["evaluate"]([jax.numpy.ones(3)] * 3)
    assert len(ns["TRACES"]) == 3


def test_unhashable_static_argument_raises():
    src = ("import jax\nimport jax.numpy as jnp\ndef grid(half):\n    return jnp.arange(-half, half)\n"
           "grid_jit = jax.jit(grid, static_argnums=0)\ndef grid_for(r):\n    return grid_jit(jnp.add(r, 1))\n")
    assert "XLA410" in _codes(src)
    ns = _run(src)
    with pytest.raises(ValueError, match="Non-hashable static arguments"):
        ns["grid_for"](2)


def test_static_argument_per_iteration_compiles_per_value():
    src = ("import jax\nfrom functools import partial\n@partial(jax.jit, static_argnums=1)\n"
           "def sample(key, n):\n    return jax.random.normal(key, (n,)).mean()\n"
           "def run(key):\n    return [sample(key, n) for n in range(1, 5)]\n")
    assert "XLA411" in _codes(src, preview=True)
    ns = _run(src)
    ns["run"](jax.random.PRNGKey(0))
    assert ns["sample"]._cache_size() == 4


def test_loop_flag_as_static_argument_compiles_twice():
    # google/automl hero/model_lib.py: a log flag the loop computes from the step (a comparison)
    # takes two values, so the jitted step compiles twice however many iterations run
    src = ("import jax\nfrom functools import partial\n@partial(jax.jit, static_argnames=['log'])\n"
           "def step(x, log=False):\n    return (x * 2, x.mean()) if log else (x * 2, None)\n"
           "def train(x, n, verbose):\n    for i in range(n):\n        should_log = i % 100 == 0 or i == n - 1\n"
           "        log = verbose and should_log\n        x, m = step(x, log=log)\n    return x\n")
    assert "XLA411" not in _codes(src, preview=True)
    ns = _run(src)
    ns["train"](jax.numpy.ones(3), 250, True)
    assert ns["step"]._cache_size() == 2
    # the loop counter itself as the static argument: one compile per iteration, still flagged
    per_step = src.replace("x, m = step(x, log=log)", "x, m = step(x, log=i)")
    assert "XLA411" in _codes(per_step, preview=True)


def test_growing_array_to_jitted_function_compiles_per_shape():
    src = ("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef next_token(ids):\n    return jnp.argmax(ids[-1:])\n"
           "def generate(ids, n):\n    for _ in range(n):\n"
           "        ids = jnp.concatenate([ids, next_token(ids)[None]])\n    return ids\n")
    assert "XLA416" in _codes(src)  # one fact, one finding: XLA409 (--preview) leaves it to XLA416
    assert "XLA409" not in _codes(src, preview=True)
    ns = _run(src)
    ns["generate"](jax.numpy.zeros(2, jax.numpy.int32), 3)
    assert ns["next_token"]._cache_size() == 3


def test_array_of_grown_list_to_jitted_function_compiles_per_length():
    src = ("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef score(ctx):\n    return jnp.sum(ctx)\n"
           "def sample(prompt, n):\n    tokens = list(prompt)\n    for _ in range(n):\n"
           "        s = score(jnp.array(tokens))\n        tokens.append(int(s) % 7)\n    return tokens\n")
    assert "XLA416" in _codes(src)
    ns = _run(src)
    ns["sample"]([1, 2], 3)
    assert ns["score"]._cache_size() == 3


def test_tuple_rebuilt_as_list_compiles_again():
    src = ("import jax\n@jax.jit\ndef step(x, state):\n    return x * 0.5 + state[1]\n"
           "def train(x, n):\n    state = (x, x)\n    for _ in range(n):\n        out = step(x, state)\n"
           "        state = [out, out]\n    return out\n")
    assert "XLA422" in _codes(src)
    ns = _run(src)
    ns["train"](jax.numpy.ones(3), 3)
    assert ns["step"]._cache_size() == 2
    same = src.replace("state = [out, out]", "state = (out, out)")
    assert "XLA422" not in _codes(same)


def test_factory_called_and_dropped_compiles_per_call():
    src = ("import jax\nTRACES = []\ndef make_update(lr):\n    @jax.jit\n    def update(p, g):\n"
           "        TRACES.append(1)\n        return p - lr * g\n    return update\n"
           "def run_trial(p, g, lr):\n    return make_update(lr)(p, g)\n"
           "def sweep(p, g, rates):\n    return [run_trial(p, g, lr) for lr in rates]\n")
    assert "XLA404" in _codes(src)  # flagged where a loop shows run_trial() runs again and again
    ns = _run(src)
    for _ in range(3):
        ns["run_trial"](jax.numpy.ones(2), jax.numpy.ones(2), 0.1)
    assert len(ns["TRACES"]) == 3


# -- issue 11, second pass: value flow and the compiler's behaviour ---------------------------------

def test_state_field_weak_at_init_strong_after_update_compiles_twice():
    src = ("import jax\nimport jax.numpy as jnp\nfrom typing import NamedTuple\n"
           "class S(NamedTuple):\n    avg: jax.Array\n    count: jax.Array\n"
           "def init():\n    return S(avg=jnp.asarray(0.0), count=jnp.asarray(0))\n"
           "@jax.jit\ndef update(state, loss):\n    avg = (state.avg * state.count + loss) / (state.count + 1)\n"
           "    return S(avg.astype(jnp.float32), state.count + 1)\n")
    assert "XLA415" in _codes(src)
    ns = _run(src)
    state = ns["init"]()
    for _ in range(3):
        state = ns["update"](state, jax.numpy.float32(0.5))
    assert ns["update"]._cache_size() == 2


def test_state_field_typed_at_init_compiles_once():
    src = ("import jax\nimport jax.numpy as jnp\nfrom typing import NamedTuple\n"
           "class S(NamedTuple):\n    avg: jax.Array\n    count: jax.Array\n"
           "def init():\n    return S(avg=jnp.asarray(0.0, jnp.float32), count=jnp.asarray(0))\n"
           "@jax.jit\ndef update(state, loss):\n    avg = (state.avg * state.count + loss) / (state.count + 1)\n"
           "    return S(avg.astype(jnp.float32), state.count + 1)\n")
    assert "XLA415" not in _codes(src)
    ns = _run(src)
    state = ns["init"]()
    for _ in range(3):
        state = ns["update"](state, jax.numpy.float32(0.5))
    assert ns["update"]._cache_size() == 1


def test_python_int_accumulator_returned_as_float_compiles_twice():
    src = ("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef add_loss(total, batch):\n"
           "    return total + jnp.mean(batch ** 2)\ndef evaluate(batches):\n    total = 0\n"
           "    for b in batches:\n        total = add_loss(total, b)\n    return total\n")
    assert "XLA415" in _codes(src)
    ns = _run(src)
    ns["evaluate"]([jax.numpy.ones(3)] * 4)
    assert ns["add_loss"]._cache_size() == 2


def test_python_int_counter_of_python_ints_compiles_once():
    src = ("import jax\nTRACES = []\n@jax.jit\ndef bump(count, step):\n    TRACES.append(1)\n    return count + step\n"
           "def count_steps(n):\n    count = 0\n    for i in range(n):\n        count = bump(count, i)\n"
           "    return count\n")
    assert "XLA415" not in _codes(src)
    ns = _run(src)
    ns["count_steps"](4)
    # one trace; the C++ dispatch cache (`_cache_size()`) holds 2 entries (Python int, weak array)
    assert len(ns["TRACES"]) == 1


def test_slice_by_loop_counter_compiles_every_iteration():
    src = ("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef step(params, prefix):\n"
           "    return prefix * params\ndef generate(params, tokens, n):\n    for t in range(1, n + 1):\n"
           "        logits = step(params, tokens[:, :t])\n        tokens = tokens.at[:, t].set(logits[:, -1])\n"
           "    return tokens\n")
    assert "XLA416" in _codes(src)
    ns = _run(src)
    ns["generate"](jax.numpy.float32(2.0), jax.numpy.ones((2, 6)), 4)
    assert ns["step"]._cache_size() == 4


def test_fixed_size_window_compiles_once():
    src = ("import jax\n@jax.jit\ndef step(params, x):\n    return params * x.sum()\n"
           "def run(params, data, bs):\n    for i in range(len(data) // bs):\n"
           "        params = step(params, data[i * bs:(i + 1) * bs])\n    return params\n")
    assert "XLA416" not in _codes(src)
    ns = _run(src)
    ns["run"](jax.numpy.float32(1.0), jax.numpy.ones(8), 2)
    assert ns["step"]._cache_size() == 1


def test_lax_switch_branch_ranks_differ_raises():
    src = ("import jax\nimport jax.numpy as jnp\nfrom jax import lax\n@jax.jit\ndef pool(x, mode):\n"
           "    return lax.switch(mode, [lambda v: jnp.mean(v, axis=0), lambda v: v], x)\n")
    assert "XLA114" in _codes(src)
    ns = _run(src)
    with pytest.raises(TypeError, match="branches must have equal output types"):
        ns["pool"](jax.numpy.ones((3, 2)), 0)


def test_lax_cond_branches_agree_with_keepdims():
    src = ("import jax\nimport jax.numpy as jnp\nfrom jax import lax\n@jax.jit\ndef f(x, i):\n"
           "    return lax.switch(i, [lambda v: v.sum(axis=0, keepdims=True), lambda v: v[:1]], x)\n")
    assert "XLA114" not in _codes(src)
    ns = _run(src)
    assert ns["f"](jax.numpy.ones((3, 2)), 1).shape == (1, 2)


@pytest.mark.parametrize("arg, setup", [
    ("np.arange(3)", ""),
    ("Config()", "@dataclasses.dataclass\nclass Config:\n    k: int = 2\n"),
])
def test_unhashable_static_argument_forms_raise(arg: str, setup: str):
    src = ("import dataclasses\nimport jax\nimport numpy as np\nfrom functools import partial\n" + setup +
           "@partial(jax.jit, static_argnums=1)\ndef head(x, n):\n    return x * 2\n"
           f"def run(x):\n    return head(x, {arg})\n")
    assert "XLA410" in _codes(src)
    ns = _run(src)
    with pytest.raises(ValueError, match="Non-hashable static arguments"):
        ns["run"](jax.numpy.ones(3))


def test_traced_value_as_inner_static_argument_raises():
    src = ("import jax\nimport jax.numpy as jnp\nfrom functools import partial\n"
           "@partial(jax.jit, static_argnums=1)\ndef tile_rows(x, reps):\n    return jnp.tile(x, (reps, 1))\n"
           "@jax.jit\ndef expand(x, reps):\n    return tile_rows(x, reps)\n")
    assert "XLA410" in _codes(src)
    ns = _run(src)
    with pytest.raises(ValueError, match="Non-hashable static arguments"):
        ns["expand"](jax.numpy.ones((2, 3)), 2)


def test_identity_hashed_static_object_per_iteration_compiles_each_time():
    src = ("import jax\nfrom functools import partial\nclass Options:\n    def __init__(self, k):\n"
           "        self.k = k\n@partial(jax.jit, static_argnums=1)\ndef scale(x, opts):\n    return x * opts.k\n"
           "def run(xs):\n    return [scale(x, Options(2)) for x in xs]\n")
    assert "XLA411" in _codes(src, preview=True)
    ns = _run(src)
    ns["run"](jax.numpy.ones((3, 2)))
    assert ns["scale"]._cache_size() == 3


def test_bound_method_jitted_per_iteration_traces_every_time():
    src = ("import jax\nTRACES = []\nclass Scaler:\n    def __init__(self, s):\n        self.s = s\n"
           "    def apply(self, x):\n        TRACES.append(1)\n        return x * self.s\n"
           "SCALER = Scaler(2.0)\ndef run(xs):\n    return [jax.jit(SCALER.apply)(x) for x in xs]\n")
    assert "XLA404" in _codes(src)
    ns = _run(src)
    ns["run"](jax.numpy.ones((3, 2)))
    assert len(ns["TRACES"]) == 3


def test_stored_function_and_outer_local_def_hit_the_cache():
    src = ("import jax\nfrom typing import Callable, NamedTuple\nTRACES = []\n"
           "class Tx(NamedTuple):\n    update: Callable\n"
           "def _update(g):\n    TRACES.append(1)\n    return g * 0.1\nTX = Tx(_update)\n"
           "def run(gs):\n    def step(g):\n        TRACES.append(1)\n        return g - 1.0\n"
           "    out = []\n    for g in gs:\n        out.append(jax.jit(TX.update)(g))\n"
           "        out.append(jax.jit(step)(g))\n    return out\n")
    assert "XLA404" not in _codes(src)
    ns = _run(src)
    ns["run"](jax.numpy.ones((3, 2)))
    assert len(ns["TRACES"]) == 2  # one trace each, for three iterations


def test_jitted_local_function_run_a_fixed_number_of_times_traces_per_call():
    src = ("import jax\nTRACES = []\ndef simulate(state, rates):\n    @jax.jit\n    def step(s):\n"
           "        TRACES.append(1)\n        return s + 0.1 * (rates @ s - s)\n    for _ in range(3):\n"
           "        state = step(state)\n    return state\n"
           "def sweep(state, all_rates):\n    return [simulate(state, r) for r in all_rates]\n")
    assert "XLA404" in _codes(src)  # flagged where a loop shows simulate() runs again and again
    ns = _run(src)
    for _ in range(2):
        ns["simulate"](jax.numpy.ones(3), jax.numpy.eye(3))
    assert len(ns["TRACES"]) == 2


def test_static_argument_read_from_array_values_compiles_per_value():
    src = ("import jax\nimport jax.numpy as jnp\nfrom functools import partial\n"
           "@partial(jax.jit, static_argnums=1)\ndef top(scores, k):\n    return jax.lax.top_k(scores, k)[0]\n"
           "def best(scores, valid):\n    k = int(jnp.sum(valid))\n    return top(scores, k)\n")
    assert "XLA411" in _codes(src, preview=True)
    ns = _run(src)
    scores = jax.numpy.arange(5.0)
    for n in (2, 3, 4):
        ns["best"](scores, jax.numpy.arange(5) < n)
    assert ns["top"]._cache_size() == 3


@pytest.mark.parametrize("body", [
    "    def __init__(self):\n        self.fwd = jax.jit(self.apply)\n"
    "    def apply(self, x):\n        TRACES.append(1)\n        return x * 2.0\n",
    "    @partial(jax.jit, static_argnums=0)\n    def fwd(self, x):\n        TRACES.append(1)\n"
    "        return x * 2.0\n",
])
def test_object_owning_a_jit_cache_built_per_iteration_traces_every_time(body: str):
    src = ("import jax\nfrom functools import partial\nTRACES = []\nclass Model:\n" + body +
           "def predict_all(xs):\n    return [Model().fwd(x) for x in xs]\n")
    assert "XLA404" in _codes(src)
    ns = _run(src)
    ns["predict_all"](jax.numpy.ones((3, 2)))
    assert len(ns["TRACES"]) == 3


def test_frozen_dataclass_with_static_self_hits_the_cache():
    src = ("import jax\nimport dataclasses\nfrom functools import partial\nTRACES = []\n"
           "@dataclasses.dataclass(frozen=True)\nclass Model:\n    k: float = 2.0\n"
           "    @partial(jax.jit, static_argnums=0)\n    def fwd(self, x):\n        TRACES.append(1)\n"
           "        return x * self.k\ndef predict_all(xs):\n    return [Model().fwd(x) for x in xs]\n")
    assert "XLA404" not in _codes(src)
    ns = _run(src)
    ns["predict_all"](jax.numpy.ones((3, 2)))
    assert len(ns["TRACES"]) == 1


# -- issue 11, branch jax3: the varying value at the call sites --------------------------------------


def test_static_argument_from_caller_loop_compiles_per_iteration():
    src = ("import jax\nfrom functools import partial\n@partial(jax.jit, static_argnums=1)\n"
           "def step_noise(key, step, x):\n    return x + jax.random.normal(jax.random.fold_in(key, step), x.shape)\n"
           "def perturb(key, x, step):\n    return step_noise(key, step, x)\n"
           "def run(key, x, n):\n    for i in range(n):\n        x = perturb(key, x, i)\n    return x\n")
    assert "XLA411" in _codes(src, preview=True)
    ns = _run(src)
    ns["run"](jax.random.PRNGKey(0), jax.numpy.ones(3), 4)
    assert ns["step_noise"]._cache_size() == 4


def test_traced_step_from_caller_loop_compiles_once():
    src = ("import jax\n@jax.jit\n"
           "def step_noise(key, step, x):\n    return x + jax.random.normal(jax.random.fold_in(key, step), x.shape)\n"
           "def perturb(key, x, step):\n    return step_noise(key, step, x)\n"
           "def run(key, x, n):\n    for i in range(n):\n        x = perturb(key, x, i)\n    return x\n")
    assert not _codes(src, preview=True) & {"XLA411", "XLA416", "XLA417"}
    ns = _run(src)
    ns["run"](jax.random.PRNGKey(0), jax.numpy.ones(3), 4)
    assert ns["step_noise"]._cache_size() == 1


def test_static_argument_drawn_in_loop_compiles_per_value():
    src = ("import jax\nimport numpy as np\nfrom functools import partial\n@partial(jax.jit, static_argnums=1)\n"
           "def sample(key, n):\n    return jax.random.normal(key, (n,)).sum()\n"
           "def mcmc(key, steps):\n    rng = np.random.default_rng(0)\n    for _ in range(steps):\n"
           "        k = rng.integers(1, 50)\n        sample(key, k)\n")
    assert "XLA411" in _codes(src, preview=True)
    ns = _run(src)
    ns["mcmc"](jax.random.PRNGKey(0), 6)
    draws = np.random.default_rng(0).integers(1, 50, size=6)
    assert ns["sample"]._cache_size() == len(set(draws.tolist())) > 1


def test_static_identity_object_built_in_loop_body_compiles_each_time():
    src = ("import jax\nfrom functools import partial\nclass Options:\n    def __init__(self, k):\n"
           "        self.k = k\n@partial(jax.jit, static_argnums=1)\ndef scale(x, opts):\n    return x * opts.k\n"
           "def run(xs):\n    out = []\n    for x in xs:\n        opts = Options(2)\n"
           "        out.append(scale(x, opts))\n    return out\n")
    assert "XLA411" in _codes(src, preview=True)
    ns = _run(src)
    ns["run"]([jax.numpy.ones(2)] * 3)
    assert ns["scale"]._cache_size() == 3


def test_list_passed_through_helper_to_static_argument_raises():
    src = ("import jax\nimport jax.numpy as jnp\nfrom functools import partial\n"
           "@partial(jax.jit, static_argnums=1)\ndef pad_to(x, widths):\n    return jnp.pad(x, widths)\n"
           "def pad_batch(x, widths):\n    return pad_to(x, widths)\n"
           "def run(x):\n    return pad_batch(x, [(0, 1), (0, 2)])\n")
    assert "XLA410" in _codes(src)
    ns = _run(src)
    with pytest.raises(ValueError, match="Non-hashable static arguments"):
        ns["run"](jax.numpy.ones((2, 2)))


def test_last_partial_batch_compiles_once_more():
    src = ("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef step(p, xs):\n    return p + xs.sum()\n"
           "def epoch(p, xs, bs=4):\n    for start in range(0, len(xs), bs):\n"
           "        p = step(p, xs[start:start + bs])\n    return p\n")
    assert "XLA416" in _codes(src)
    ns = _run(src)
    ns["epoch"](jax.numpy.zeros(()), np.ones((10, 2), np.float32))
    assert ns["step"]._cache_size() == 2  # 4 rows, then the 2-row remainder
    ns["epoch"](jax.numpy.zeros(()), np.ones((11, 2), np.float32))
    assert ns["step"]._cache_size() == 3  # a new data set, a new remainder


def test_whole_batches_only_compile_once():
    src = ("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef step(p, xs):\n    return p + xs.sum()\n"
           "def epoch(p, xs, bs=4):\n    for i in range(len(xs) // bs):\n"
           "        p = step(p, xs[i * bs:(i + 1) * bs])\n    return p\n")
    assert not _codes(src) & {"XLA416", "XLA417"}
    ns = _run(src)
    ns["epoch"](jax.numpy.zeros(()), np.ones((10, 2), np.float32))
    ns["epoch"](jax.numpy.zeros(()), np.ones((11, 2), np.float32))
    assert ns["step"]._cache_size() == 1


def test_ceil_batch_count_compiles_for_the_remainder():
    src = ("import jax\nimport math\n@jax.jit\ndef step(p, xs):\n    return p + xs.sum()\n"
           "def epoch(p, xs, bs=4):\n    n_batches = math.ceil(len(xs) / bs)\n    for i in range(n_batches):\n"
           "        p = step(p, xs[i * bs:(i + 1) * bs])\n    return p\n")
    assert "XLA416" in _codes(src)
    ns = _run(src)
    ns["epoch"](jax.numpy.zeros(()), np.ones((10, 2), np.float32))
    assert ns["step"]._cache_size() == 2


def test_array_sized_by_loop_variable_compiles_per_size():
    src = ("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef solve(L):\n    return jnp.linalg.norm(L @ L.T)\n"
           "def solve_all(key, sizes):\n    out = []\n    for n in sizes:\n"
           "        L = jax.random.uniform(key, (n, 3))\n        out.append(solve(L))\n    return out\n")
    assert "XLA416" in _codes(src)
    ns = _run(src)
    ns["solve_all"](jax.random.PRNGKey(0), [2, 3, 4, 3])
    assert ns["solve"]._cache_size() == 3


def test_mask_selected_argument_compiles_per_count():
    src = ("import jax\nimport numpy as np\n@jax.jit\ndef mean(x):\n    return x.mean()\n"
           "def evaluate(batches):\n    out = []\n    for b in batches:\n        valid = b > 0\n"
           "        out.append(mean(b[valid]))\n    return out\n")
    assert "XLA417" in _codes(src)
    ns = _run(src)
    batches = [np.array([1.0, -1.0, 2.0, 3.0]), np.array([1.0, 1.0, -2.0, -3.0]), np.array([-1.0, 1.0, -2.0, 3.0])]
    ns["evaluate"](batches)
    assert ns["mean"]._cache_size() == 2  # 3 valid rows, then 2 (twice)


def test_unique_without_size_argument_compiles_per_count():
    src = ("import jax\nimport numpy as np\n@jax.jit\ndef centroid(points):\n    return points.mean(0)\n"
           "def track(frames):\n    return [centroid(np.unique(f)) for f in frames]\n")
    assert "XLA417" in _codes(src)
    ns = _run(src)
    ns["track"]([np.array([1.0, 1.0, 2.0]), np.array([1.0, 2.0, 3.0]), np.array([4.0, 4.0, 4.0])])
    assert ns["centroid"]._cache_size() == 3


def test_mask_passed_with_fixed_shape_compiles_once():
    src = ("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef masked_mean(x, valid):\n"
           "    return jnp.sum(jnp.where(valid, x, 0.0)) / jnp.sum(valid)\n"
           "def evaluate(batches):\n    return [masked_mean(b, b > 0) for b in batches]\n")
    assert not _codes(src) & {"XLA416", "XLA417"}
    ns = _run(src)
    ns["evaluate"]([np.array([1.0, -1.0, 2.0]), np.array([1.0, 1.0, -2.0])])
    assert ns["masked_mean"]._cache_size() == 1


def test_list_comprehension_over_growing_range_compiles_per_length():
    src = ("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef total(parts):\n    return sum(p.sum() for p in parts)\n"
           "def run(x, n):\n    out = []\n    for i in range(1, n):\n"
           "        out.append(total([x[j] for j in range(i)]))\n    return out\n")
    assert "XLA416" in _codes(src)
    ns = _run(src)
    ns["run"](jax.numpy.ones((4, 2)), 4)
    assert ns["total"]._cache_size() == 3



def test_static_counter_incremented_per_call_compiles_every_call():
    src = ("import jax\nfrom functools import partial\n@partial(jax.jit, static_argnums=2)\n"
           "def update(p, g, step):\n    return p - g / (step + 1)\nclass Trainer:\n"
           "    def __init__(self, p):\n        self.p, self.step = p, 0\n"
           "    def train_step(self, g):\n        self.step += 1\n"
           "        self.p = update(self.p, g, self.step)\n")
    assert "XLA411" in _codes(src, preview=True)
    ns = _run(src)
    trainer = ns["Trainer"](jax.numpy.ones(2))
    for _ in range(3):
        trainer.train_step(jax.numpy.ones(2))
    assert ns["update"]._cache_size() == 3


def test_array_method_result_as_static_argument_raises():
    src = ("import jax\nimport jax.numpy as jnp\ndef _grid(n):\n    return jnp.arange(n)\n"
           "grid = jax.jit(_grid, static_argnums=(0,))\n"
           "def pixels(scale):\n    npix = jnp.ceil(2.0 / scale).astype(jnp.int32)\n    return grid(npix)\n")
    assert "XLA410" in _codes(src)
    ns = _run(src)
    with pytest.raises(ValueError, match="Non-hashable static arguments"):
        ns["pixels"](0.5)


def test_global_rebound_between_calls_is_stale():
    src = ("import jax\nSCALE = 1.0\n@jax.jit\ndef scaled(x):\n    return x * SCALE\n"
           "def sweep(x):\n    global SCALE\n    out = []\n    for s in (1.0, 2.0, 3.0):\n"
           "        SCALE = s\n        out.append(float(scaled(x)))\n    return out\n")
    assert "XLA418" in _codes(src)
    ns = _run(src)
    assert ns["sweep"](jax.numpy.float32(2.0)) == [2.0, 2.0, 2.0]  # not [2, 4, 6]: the first trace's value
    assert ns["scaled"]._cache_size() == 1


@pytest.mark.parametrize("build", ["jnp.array([t for t in ids if t != 0])",
                                   "jnp.array([vocab[w] for w in text.split()])"])
def test_variable_length_list_to_jitted_function_compiles_per_length(build: str):
    src = ("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef embed(x):\n    return x.sum()\n"
           "def run(texts, vocab):\n    out = []\n    for text in texts:\n"
           "        ids = [vocab[w] for w in text.split()]\n"
           f"        out.append(embed({build}))\n    return out\n")
    assert "XLA417" in _codes(src)
    ns = _run(src)
    ns["run"](["a b", "a b c", "c 0 a b a"], {"a": 1, "b": 2, "c": 3, "0": 0})
    assert ns["embed"]._cache_size() == 3


def test_static_argument_of_jit_defined_in_the_driver_compiles_per_value():
    src = ("import jax\nfrom functools import partial\ndef main(key, sizes):\n"
           "    @partial(jax.jit, static_argnums=1)\n    def sample(k, n):\n"
           "        return jax.random.normal(k, (n,)).sum()\n"
           "    out = [sample(key, n) for n in sizes]\n    return out, sample\n")
    assert "XLA411" in _codes(src, preview=True)
    ns = _run(src)
    _, sample = ns["main"](jax.random.PRNGKey(0), [2, 3, 4])
    assert sample._cache_size() == 3


def test_python_float_fed_back_strongly_typed_through_a_name_compiles_twice():
    src = ("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef line_search(params, grads, stepsize):\n"
           "    new_step = stepsize * jnp.float32(0.5)\n    return params - new_step * grads, new_step\n"
           "def solve(params, grads, n):\n    stepsize = 1.0\n    for _ in range(n):\n"
           "        params, stepsize = line_search(params, grads, stepsize)\n    return params\n")
    assert "XLA415" in _codes(src)
    ns = _run(src)
    ns["solve"](jax.numpy.ones(2), jax.numpy.ones(2), 3)
    assert ns["line_search"]._cache_size() == 2


def test_static_lambda_per_iteration_compiles_every_iteration():
    src = ("import jax\nfrom functools import partial\nTRACES = []\n@partial(jax.jit, static_argnums=0)\n"
           "def minimize(loss_fn, p):\n    TRACES.append(1)\n    return p - jax.grad(loss_fn)(p)\n"
           "def train(p, batches):\n    for b in batches:\n        p = minimize(lambda q: (q * b).sum(), p)\n"
           "    return p\n")
    assert "XLA419" in _codes(src)
    ns = _run(src)
    ns["train"](jax.numpy.ones(3), [1.0, 2.0, 3.0])
    assert len(ns["TRACES"]) == 3


def test_static_function_defined_once_compiles_once():
    src = ("import jax\nfrom functools import partial\nTRACES = []\n@partial(jax.jit, static_argnums=0)\n"
           "def minimize(loss_fn, p, b):\n    TRACES.append(1)\n    return p - jax.grad(loss_fn)(p, b)\n"
           "def loss(q, b):\n    return (q * b).sum()\n"
           "def train(p, batches):\n    for b in batches:\n        p = minimize(loss, p, b)\n    return p\n")
    assert "XLA419" not in _codes(src)
    ns = _run(src)
    ns["train"](jax.numpy.ones(3), [1.0, 2.0, 3.0])
    assert len(ns["TRACES"]) == 1


def test_static_self_attribute_change_is_ignored():
    src = ("import jax\nfrom functools import partial\nclass Model:\n    def __init__(self, w):\n"
           "        self.w = w\n    def set_w(self, w):\n        self.w = w\n"
           "    @partial(jax.jit, static_argnums=0)\n    def predict(self, x):\n        return x * self.w\n"
           "def sweep(m, x, ws):\n    outs = []\n    for w in ws:\n        m.set_w(w)\n"
           "        outs.append(float(m.predict(x)))\n    return outs\n")
    assert "XLA420" in _codes(src)
    ns = _run(src)
    assert ns["sweep"](ns["Model"](2.0), 1.0, [2.0, 3.0]) == [2.0, 2.0]  # the compiled code kept w = 2.0



def test_carry_starting_as_none_compiles_twice():
    src = ("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef step(x, h):\n"
           "    h = x if h is None else x + h\n    return h * 2, h\n"
           "def run(xs):\n    h = None\n    for x in xs:\n        y, h = step(x, h)\n    return y\n")
    assert "XLA421" in _codes(src)
    ns = _run(src)
    ns["run"]([jax.numpy.ones(3)] * 4)
    assert ns["step"]._cache_size() == 2


def test_carry_starting_as_arrays_compiles_once():
    src = ("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef step(x, h):\n    h = x + h\n    return h * 2, h\n"
           "def run(xs):\n    h = jnp.zeros(3)\n    for x in xs:\n        y, h = step(x, h)\n    return y\n")
    assert "XLA421" not in _codes(src)
    ns = _run(src)
    ns["run"]([jax.numpy.ones(3)] * 4)
    assert ns["step"]._cache_size() == 1


def test_int_rebound_to_float_in_loop_compiles_twice():
    src = ("import jax\n@jax.jit\ndef step(p, lr):\n    return p * lr\n"
           "def train(p, n):\n    lr = 1\n    for _ in range(n):\n        p = step(p, lr)\n        lr *= 0.5\n"
           "    return p\n")
    assert "XLA415" in _codes(src)
    ns = _run(src)
    ns["train"](jax.numpy.ones(3), 4)
    assert ns["step"]._cache_size() == 2


def test_float_rebound_to_float_in_loop_compiles_once():
    src = ("import jax\n@jax.jit\ndef step(p, lr, i):\n    return p * lr + i\n"
           "def train(p, n):\n    lr, i = 0.1, 0\n    for _ in range(n):\n        p = step(p, lr, i)\n"
           "        lr = lr * 0.5\n        i += 1\n    return p\n")
    assert "XLA415" not in _codes(src)
    ns = _run(src)
    ns["train"](jax.numpy.ones(3), 4)
    assert ns["step"]._cache_size() == 1


def test_dict_key_added_on_some_iterations_compiles_per_structure():
    src = ("import jax\n@jax.jit\ndef step(s, feed):\n    return s + sum(v.sum() for v in feed.values())\n"
           "def train(s, xs):\n    for i, x in enumerate(xs):\n        feed = {'x': x}\n"
           "        if i % 2 == 0:\n            feed['aux'] = x\n        s = step(s, feed)\n    return s\n")
    assert "XLA422" in _codes(src)
    ns = _run(src)
    ns["train"](jax.numpy.zeros(()), [jax.numpy.ones(3)] * 4)
    assert ns["step"]._cache_size() == 2


def test_dict_key_set_on_every_iteration_compiles_once():
    src = ("import jax\n@jax.jit\ndef step(s, feed):\n    return s + sum(v.sum() for v in feed.values())\n"
           "def train(s, xs):\n    for i, x in enumerate(xs):\n        feed = {'x': x}\n"
           "        feed['aux'] = x * (i % 2)\n        s = step(s, feed)\n    return s\n")
    assert "XLA422" not in _codes(src)
    ns = _run(src)
    ns["train"](jax.numpy.zeros(()), [jax.numpy.ones(3)] * 4)
    assert ns["step"]._cache_size() == 1


def test_static_lambda_made_on_the_first_iteration_only_compiles_once():
    src = ("import jax\nfrom functools import partial\n@partial(jax.jit, static_argnums=0)\n"
           "def minimize(loss_fn, p):\n    return p - jax.grad(loss_fn)(p)\n"
           "def train(p, batches):\n    for i, b in enumerate(batches):\n        if i == 0:\n"
           "            fn = lambda q: (q * q).sum()\n        p = minimize(fn, p)\n    return p\n")
    assert "XLA419" not in _codes(src)
    ns = _run(src)
    ns["train"](jax.numpy.ones(3), range(4))
    assert ns["minimize"]._cache_size() == 1
    # the same lambda made on every iteration: flagged, one compile per call
    per_iteration = src.replace("        if i == 0:\n            fn = lambda", "        fn = lambda")
    assert "XLA419" in _codes(per_iteration)
    ns = _run(per_iteration)
    ns["train"](jax.numpy.ones(3), range(4))
    assert ns["minimize"]._cache_size() == 4


def test_optional_field_of_every_batch_compiles_once():
    src = ("import jax\n@jax.jit\ndef step(s, x, mask):\n"
           "    return s + (x.sum() if mask is None else (x * mask).sum())\n"
           "def train(s, loader):\n    for batch in loader:\n"
           "        mask = batch['mask'] if 'mask' in batch else None\n"
           "        s = step(s, batch['x'], mask)\n    return s\n")
    assert "XLA422" not in _codes(src)  # a test of the batch's fields, not of a per-iteration value
    ns = _run(src)
    ones = jax.numpy.ones(3)
    ns["train"](jax.numpy.zeros(()), [{"x": ones, "mask": ones}] * 4)
    assert ns["step"]._cache_size() == 1


def test_new_vjp_pullback_per_iteration_traces_every_time():
    src = ("import jax\nimport jax.numpy as jnp\nTRACES = []\ndef energy(x):\n    return jnp.sum(jnp.sin(x) * x)\n"
           "@jax.jit\ndef apply_pullback(pb, t):\n    TRACES.append(1)\n    return pb(t)[0]\n"
           "def descend(x, steps):\n    for _ in range(steps):\n        _, pb = jax.vjp(energy, x)\n"
           "        x = x - 0.1 * apply_pullback(pb, 1.0)\n    return x\n")
    assert "XLA414" in _codes(src)
    ns = _run(src)
    ns["descend"](jax.numpy.ones(3), 3)
    assert len(ns["TRACES"]) == 3
    # one pullback built before the loop: flagged by nothing, traced once
    fixed = src.replace("    for _ in range(steps):\n        _, pb = jax.vjp(energy, x)\n",
                        "    _, pb = jax.vjp(energy, x)\n    for _ in range(steps):\n")
    assert "XLA414" not in _codes(fixed)
    ns = _run(fixed)
    ns["descend"](jax.numpy.ones(3), 3)
    assert len(ns["TRACES"]) == 1


def test_static_object_equal_by_type_keeps_first_values():
    src = ("import jax\nfrom functools import partial\nclass Sched:\n    def __init__(self, lr):\n"
           "        self.lr = lr\n    def __hash__(self):\n        return hash(type(self).__name__)\n"
           "    def __eq__(self, other):\n        return type(self) is type(other)\n"
           "    def __call__(self, step):\n        return self.lr * step\n"
           "@partial(jax.jit, static_argnums=0)\ndef update(sched, step, w):\n    return w - sched(step)\n")
    assert "XLA423" in _codes(src)
    ns = _run(src)
    one = jax.numpy.ones(())
    first = ns["update"](ns["Sched"](0.1), one, one)
    second = ns["update"](ns["Sched"](0.5), one, one)
    assert float(first) == float(second)  # stale: the second call ran with lr=0.1
    assert ns["update"]._cache_size() == 1


def test_eager_concatenate_of_grown_array_compiles_every_iteration():
    src = ("import jax.numpy as jnp\ndef collect(rows):\n    acc = jnp.zeros((0, 13))\n    for r in rows:\n"
           "        acc = jnp.concatenate([acc, r])\n    return acc\n")
    assert "XLA424" in {d.code for d in check_source(src, "case.py", preview=True).diagnostics}
    assert "XLA424" not in _codes(src)  # behind --preview
    compiles: list[str] = []
    active = [True]

    def listener(event: str, duration_secs: float, **_: Any) -> None:
        if active[0] and event == "/jax/core/compile/backend_compile_duration":
            compiles.append(event)

    jax.monitoring.register_event_duration_secs_listener(listener)
    try:
        ns = _run(src)
        rows = [jax.numpy.full((1, 13), float(i)) for i in range(4)]
        jax.block_until_ready(rows)
        compiles.clear()
        ns["collect"](rows)
    finally:
        active[0] = False
    assert len(compiles) >= 4  # one concatenate per new length (plus the zeros)


def test_list_of_windows_with_a_shorter_last_compiles_twice_but_padded_once():
    """XLA416 on ``batches = [data[i:i + bs] for i in range(0, len(data), bs)]`` iterated by the
    training loop (10 rows in windows of 4: 4, 4, 2, two compiles); the array padded by
    ``(-n) % bs`` first gives one shape."""
    bad = ("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef step(p, xb):\n    return p + xb.sum()\n"
           "def train(p, data, bs, epochs):\n    batches = [data[i:i + bs] for i in range(0, len(data), bs)]\n"
           "    for _ in range(epochs):\n        for xb in batches:\n            p = step(p, xb)\n    return p\n")
    assert "XLA416" in _codes(bad)
    ns = _run(bad)
    ns["train"](jax.numpy.float32(0.0), jax.numpy.ones(10), 4, 2)
    assert ns["step"]._cache_size() == 2
    good = ("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef step(p, xb):\n    return p + xb.sum()\n"
            "def train(p, data, bs):\n    n = data.shape[0]\n    padded = jnp.pad(data, (0, (-n) % bs))\n"
            "    for i in range(0, padded.shape[0], bs):\n        p = step(p, padded[i:i + bs])\n    return p\n")
    assert "XLA416" not in _codes(good)
    ns = _run(good)
    ns["train"](jax.numpy.float32(0.0), jax.numpy.ones(10), 4)
    assert ns["step"]._cache_size() == 1


def test_rows_padded_to_each_batch_longest_compile_per_length():
    """XLA416 on ``jnp.array([[0] * (longest - len(p)) + p for p in prompts])`` with ``longest`` each
    batch's own maximum (3, 5, 2: three compiles); padded to a constant length, one."""
    bad = ("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef generate(ids):\n    return ids.sum(axis=1)\n"
           "def evaluate(prompt_batches):\n    for prompts in prompt_batches:\n"
           "        longest = max(len(p) for p in prompts)\n"
           "        generate(jnp.array([[0] * (longest - len(p)) + p for p in prompts]))\n")
    good = bad.replace("(longest - len(p))", "(8 - len(p))")
    assert "XLA416" in _codes(bad)
    assert "XLA416" not in _codes(good)
    batches = [[[1, 2, 3], [4, 5]], [[1, 2], [3, 4, 5, 6, 7]], [[1], [2, 3]]]
    ns = _run(bad)
    ns["evaluate"](batches)
    assert ns["generate"]._cache_size() == 3
    ns = _run(good)
    ns["evaluate"](batches)
    assert ns["generate"]._cache_size() == 1


def test_state_field_read_from_reduction_at_init_compiles_twice():
    # the step's first call reads `loglik` as init bound it: jnp.sum(...), strongly typed, so the
    # returned `logz` is strongly typed while init built it weakly (jnp.asarray(-jnp.inf))
    src = ("import jax\nimport jax.numpy as jnp\nfrom typing import NamedTuple\n"
           "class S(NamedTuple):\n    loglik: jax.Array\n    logz: jax.Array\n"
           "def init(x):\n    return S(loglik=jnp.sum(x ** 2, axis=-1), logz=jnp.asarray(-jnp.inf))\n"
           "@jax.jit\ndef step(state):\n    return S(state.loglik * 0.5, jnp.logaddexp(state.logz, state.loglik[0]))\n")
    assert "XLA415" in _codes(src)
    ns = _run(src)
    state = ns["init"](jax.numpy.ones((4, 2)))
    for _ in range(3):
        state = ns["step"](state)
    assert ns["step"]._cache_size() == 2


def test_parameter_default_start_rebound_from_random_draw_result_compiles_twice():
    src = ("import jax\nimport jax.numpy as jnp\nTRACES = []\n@jax.jit\ndef transition(q, key, step_size):\n"
           "    TRACES.append(1)\n    p = jax.random.normal(key, q.shape)\n"
           "    return q + step_size * p, jnp.minimum(1.0, jnp.exp(-jnp.sum(p ** 2)))\n"
           "def warmup(q, keys, init_step_size=0.1):\n    step_size = init_step_size\n    for key in keys:\n"
           "        q, acc = transition(q, key, step_size)\n        step_size = step_size * jnp.exp(acc - 0.8)\n"
           "    return q\n")
    assert "XLA415" in _codes(src)
    ns = _run(src)
    ns["warmup"](jax.numpy.zeros(2), jax.random.split(jax.random.PRNGKey(0), 3))
    assert len(ns["TRACES"]) == 2
    fixed = src.replace("step_size * jnp.exp(acc - 0.8)", "step_size * 0.9")
    assert "XLA415" not in _codes(fixed)
    ns = _run(fixed)
    ns["warmup"](jax.numpy.zeros(2), jax.random.split(jax.random.PRNGKey(0), 3))
    assert len(ns["TRACES"]) == 1


def test_python_float_carried_through_exp_of_python_number_compiles_once():
    src = ("import jax\nimport jax.numpy as jnp\nTRACES = []\n@jax.jit\ndef step(acc, x):\n    TRACES.append(1)\n"
           "    return acc + jnp.exp(x)\ndef run(xs):\n    acc = 0.0\n    for x in xs:\n        acc = step(acc, 2.0)\n"
           "    return acc\n")
    assert "XLA415" not in _codes(src)
    ns = _run(src)
    ns["run"]([1, 2, 3])
    assert len(ns["TRACES"]) == 1
    summed = src.replace("jnp.exp(x)", "jnp.sum(x)")  # a reduction is strongly typed (jax_weak_types.json)
    assert "XLA415" in _codes(summed)
    ns = _run(summed)
    ns["run"]([1, 2, 3])
    assert len(ns["TRACES"]) == 2


def test_python_float_counting_an_integer_sum_compiles_once():
    # `correct + jnp.sum(mask)`: an int32 sum added to a weakly typed float is a weakly typed float32,
    # so the carried value keeps its type (one trace); counted from the int 0 it becomes a strongly
    # typed int32 (two traces)
    src = ("import jax\nimport jax.numpy as jnp\nTRACES = []\n@jax.jit\ndef count(correct, logits, labels):\n"
           "    TRACES.append(1)\n    return correct + jnp.sum(jnp.argmax(logits, -1) == labels)\n"
           "def evaluate(batches):\n    correct = 0.0\n    for logits, labels in batches:\n"
           "        correct = count(correct, logits, labels)\n    return correct\n")
    batches = [(jax.numpy.ones((4, 3)), jax.numpy.zeros(4, jax.numpy.int32))] * 3
    assert "XLA415" not in _codes(src)
    ns = _run(src)
    ns["evaluate"](batches)
    assert len(ns["TRACES"]) == 1
    from_int = src.replace("correct = 0.0", "correct = 0")
    assert "XLA415" in _codes(from_int)
    ns = _run(from_int)
    ns["evaluate"](batches)
    assert len(ns["TRACES"]) == 2


_LEAF_SRC = ("import jax\nimport jax.numpy as jnp\nTRACES = []\n"
             "def init():\n    return {\"w\": jnp.ones((3,)), \"b\": 0.0}\n"
             "@jax.jit\ndef step(params, count, x):\n    TRACES.append(1)\n"
             "    grads = jax.grad(lambda p: jnp.sum((p[\"w\"] * x + p[\"b\"]) ** 2))(params)\n"
             "    count = count + 1\n    scale = 1 - 0.9 ** count\n"
             "    params = jax.tree_util.tree_map(lambda p, g: p - 0.1 * g / scale, params, grads)\n"
             "    return params, count\n"
             "def fit(x, n):\n    params = init()\n    count = jnp.zeros((), jnp.int32)\n"
             "    for _ in range(n):\n        params, count = step(params, count, x)\n    return params\n")


def _leaf_traces(src: str) -> int:
    ns = _run(src)
    ns["fit"](jax.numpy.ones(3), 4)
    return len(ns["TRACES"])


def test_pytree_leaf_python_float_then_bias_corrected_update_traces_twice():
    # the leaf `b` starts as a Python float (weakly typed); 0.9 ** count with an int32 count is strongly
    # typed inside jax.jit, so the tree_map returns `b` strongly typed and the second call traces again
    assert "XLA415" in _codes(_LEAF_SRC)
    assert _leaf_traces(_LEAF_SRC) == 2
    typed = _LEAF_SRC.replace('"b": 0.0', '"b": jnp.zeros((), jnp.float32)')
    assert "XLA415" not in _codes(typed)
    assert _leaf_traces(typed) == 1


def test_pytree_leaf_python_float_updated_by_its_gradient_traces_once():
    # the gradient of a weakly typed leaf is weakly typed, and so is `p - 0.1 * g`: one trace, no finding
    plain = _LEAF_SRC.replace("0.1 * g / scale", "0.1 * g")
    assert "XLA415" not in _codes(plain)
    assert _leaf_traces(plain) == 1


def test_python_float_total_of_an_integer_argument_sum_traces_once():
    # `total + jnp.sum(labels)` with int32 labels bound before the loop: a weakly typed float32 (one
    # trace, no finding); from the int 0 it is a strongly typed int32 (two traces, flagged)
    src = ("import jax\nimport jax.numpy as jnp\nTRACES = []\n@jax.jit\ndef add(total, labels):\n"
           "    TRACES.append(1)\n    return total + jnp.sum(labels)\n"
           "def run(n):\n    labels = jnp.arange(5, dtype=jnp.int32)\n    total = 0.0\n"
           "    for _ in range(n):\n        total = add(total, labels)\n    return total\n")
    assert "XLA415" not in _codes(src)
    ns = _run(src)
    ns["run"](3)
    assert len(ns["TRACES"]) == 1
    from_int = src.replace("total = 0.0", "total = 0")
    assert "XLA415" in _codes(from_int)
    ns = _run(from_int)
    ns["run"](3)
    assert len(ns["TRACES"]) == 2


def test_builtin_max_of_int_floor_and_float_compiles_once_per_type():
    # max(1, t) returns the int 1 for a small total and the float t otherwise: weakly typed int32, then
    # float32, two traces (mbi PR 201); with the float floor 1.0 it is always a float, one trace
    src = ("import jax\nimport jax.numpy as jnp\nTRACES = []\ndef floor_total(x):\n    t = float(jnp.sum(x))\n"
           "    return max(1, t)\n@jax.jit\ndef step(p, total):\n    TRACES.append(1)\n    return p / total\n"
           "def run(batches):\n    p = jnp.ones(3)\n    for b in batches:\n        p = step(p, floor_total(b))\n"
           "    return p\n")
    batches = [jax.numpy.full(3, 0.1), jax.numpy.full(3, 2.0), jax.numpy.full(3, 3.0)]
    assert "XLA415" in _codes(src)
    ns = _run(src)
    ns["run"](batches)
    assert len(ns["TRACES"]) == 2
    fixed = src.replace("max(1, t)", "max(1.0, t)")
    assert "XLA415" not in _codes(fixed)
    ns = _run(fixed)
    ns["run"](batches)
    assert len(ns["TRACES"]) == 1


def _counted(src: str, func_line: str) -> str:
    """``src`` with a trace counter as the first statement of the jitted function (``func_line``)."""
    assert func_line in src
    return "TRACES = []\n" + src.replace(func_line, func_line + "    TRACES.append(1)\n")


def test_xla411_step_counters_trace_per_step_table_entries_once_each():
    """Why XLA411 (out of --preview) follows step counters only: a number the helper computes
    from the step its caller passes traces on every step; a loop over a table's entries traces once
    per entry and not again on the next pass; range(2) and a comparison of a counter trace twice."""
    from xlacheck.rules.static_argument_per_iteration import StaticArgumentPerIteration as R
    x = jax.numpy.ones(3)

    helper = _example_code(R.INVALID, "lr = 0.1 / (i + 1)")
    assert "XLA411" in _codes(helper)
    ns = _run(_counted(helper, "def step(x, lr):\n"))
    ns["train"](x, 4)
    assert len(ns["TRACES"]) == 4

    table = _example_code(R.VALID, "def fit_head(x, num_classes)")
    assert "XLA411" not in _codes(table) and "XLA411" in _codes(table, preview=True)
    ns = _run(_counted(table, "def fit_head(x, num_classes):\n"))
    datasets = {"a": 1, "b": 2, "c": 3}
    ns["run"](jax.numpy.ones((2, 3)), datasets)
    ns["run_all"](jax.numpy.ones((2, 3)), datasets)
    assert len(ns["TRACES"]) == 3  # one per entry, the second pass hits the cache

    two = _example_code(R.VALID, "for i in range(2)]")
    assert "XLA411" not in _codes(two)
    ns = _run(_counted(two, "def team_reward(x, team):\n"))
    for _ in range(3):
        ns["rewards"](x)
    assert len(ns["TRACES"]) == 2

    flag = _example_code(R.VALID, "sync=self.step % 100 == 0")
    assert "XLA411" not in _codes(flag)
    ns = _run(_counted(flag, "def update(p, g, sync):\n"))
    learner = ns["Learner"]()
    learner.step, learner.p = 0, x
    for _ in range(250):
        learner.update(x * 0.01)
    assert len(ns["TRACES"]) == 2


def test_xla416_module_list_appended_per_call_traces_every_call():
    """A module-level list a helper appends to, joined with jnp.array: a new length, a new trace,
    on every call of the helper; started afresh (``.clear()``), one trace."""
    from xlacheck.rules.jit_argument_shape_per_iteration import JitArgumentShapePerIteration as R
    grows = _example_code(R.INVALID, "history = []\ndef run_step(i):\n    history.append(float(i))")
    assert "XLA416" in _codes(grows)
    ns = _run(_counted(grows, "def step(h):\n"))
    ns["train"](4)
    assert len(ns["TRACES"]) == 4
    fresh = _example_code(R.VALID, "history.clear()")
    assert "XLA416" not in _codes(fresh)
    ns = _run(_counted(fresh, "def step(h):\n"))
    ns["train"](4)
    assert len(ns["TRACES"]) == 1


def test_xla422_module_list_passed_itself_traces_every_call_a_window_a_bounded_number():
    """A module-level list a per-step helper appends to, passed itself to jax.jit: one item longer,
    a new pytree structure and a new trace, on every call; kept to a window of 4 with ``.pop(0)``,
    it traces once per length up to the window and then hits the cache."""
    from xlacheck.rules.jit_argument_structure_per_iteration import JitArgumentStructurePerIteration as R
    xs = [jax.numpy.ones(2) * i for i in range(8)]
    grows = _example_code(R.INVALID, "history.append(x)\n    return step(x, history)")
    assert "XLA422" in _codes(grows)
    ns = _run(_counted(grows, "def step(x, history):\n"))
    ns["train"](xs)
    assert len(ns["TRACES"]) == 8
    window = _example_code(R.VALID, "history.pop(0)")
    assert "XLA422" not in _codes(window)
    ns = _run(_counted(window, "def step(x, history):\n"))
    ns["train"](xs)
    assert len(ns["TRACES"]) == 3  # lengths 1, 2, 3; then 3 every call


def _example_code(examples: Any, text: str) -> str:
    (code,) = [e.code for e in examples if text in e.code]
    return code


def test_xla411_builder_returning_a_new_identity_object_per_step_traces_every_step():
    """XLA411 through a builder of this file: ``opts = make_options(2)`` in the loop returns a new
    plain ``Options`` (hashed by identity) every iteration, a new static key; the same builder
    called once before the loop gives one object, one trace."""
    from xlacheck.rules.static_argument_per_iteration import StaticArgumentPerIteration as R
    xs = [jax.numpy.ones(2)] * 4
    per_step = _example_code(R.INVALID, "opts = make_options(2)\n        out.append")
    assert "XLA411" in _codes(per_step)
    ns = _run(_counted(per_step, "def scale(x, opts):\n"))
    ns["run"](xs)
    assert len(ns["TRACES"]) == 4
    once = _example_code(R.VALID, "opts = make_options(2)\n    return [")
    assert "XLA411" not in _codes(once)
    ns = _run(_counted(once, "def scale(x, opts):\n"))
    ns["run"](xs)
    assert len(ns["TRACES"]) == 1


def test_xla411_namedtuple_of_new_closures_per_step_traces_every_step():
    """An optax-style builder returning a NamedTuple of the closures it defines, called per step:
    equal-looking but new functions, a new static key each step (static.namedtuple_of_new_closures)."""
    from xlacheck.rules.static_argument_per_iteration import StaticArgumentPerIteration as R
    src = _example_code(R.INVALID, "return Transform(update_fn)")
    assert "XLA411" in _codes(src)
    ns = _run(_counted(src, "def apply(x, opt):\n"))
    ns["train"](jax.numpy.ones(2), 4)
    assert len(ns["TRACES"]) == 4
    hoisted = src.replace("    opt = momentum(0.1)\n    return apply(x, opt)\n", "    return apply(x, OPT)\n") \
        + "OPT = momentum(0.1)\n"
    assert "XLA411" not in _codes(hoisted)
    ns = _run(_counted(hoisted, "def apply(x, opt):\n"))
    ns["train"](jax.numpy.ones(2), 4)
    assert len(ns["TRACES"]) == 1


def test_xla427_eager_lax_loop_with_a_body_per_call_traces_and_compiles_every_call():
    """XLA427 (preview): ``line_search`` runs ``lax.while_loop`` eagerly with a body it defines, once
    per step: every call traces the body and XLA-compiles the loop again
    (``eager.while_loop_new_body_per_call``); the same function under ``jax.jit`` (the rule's VALID
    example) traces the body once (``eager.while_loop_new_body_under_jit``)."""
    from jax import monitoring

    from xlacheck.rules.eager_lax_body_per_call import EagerLaxBodyPerCall as R
    compiles = [0]

    def listener(event: str, duration_secs: float, **_: Any) -> None:
        if event == "/jax/core/compile/backend_compile_duration":
            compiles[0] += 1

    monitoring.register_event_duration_secs_listener(listener)
    eager = _example_code(R.INVALID, "def line_search(params, lr):")
    assert "XLA427" in _codes(eager, preview=True) and "XLA427" not in _codes(eager)
    counter = "        TRACES.append(1)\n"
    ns = _run("TRACES = []\n" + eager.replace("    def body(state):\n", "    def body(state):\n" + counter))
    ns["train"](jax.numpy.ones(3), 4)
    assert len(ns["TRACES"]) == 4 and compiles[0] >= 4
    jitted = _example_code(R.VALID, "@jax.jit\ndef solve(x, lr):")
    assert "XLA427" not in _codes(jitted, preview=True)
    ns = _run("TRACES = []\n" + jitted.replace("    def body(s):\n", "    def body(s):\n" + counter))
    ns["train"](jax.numpy.ones(3), 4)
    assert len(ns["TRACES"]) == 1


def test_xla428_per_call_float_in_pytree_aux_data_traces_every_step():
    """XLA428: ``Scaled`` keeps ``scale`` in its aux data and ``train`` builds it with
    ``0.1 / (i + 1)`` per step, passed to jitted ``f``: the treedef differs every step, so ``f``
    traces every step (``pytree.aux_data_float_new_value``); the rule's VALID example with one
    constant scale (``pytree.aux_data_float_same_value``) traces once."""
    from xlacheck.rules.pytree_aux_data_per_call_value import PytreeAuxDataPerCallValue as R
    counter = "    TRACES.append(1)\n"
    flagged = _example_code(R.INVALID, "scale=0.1 / (i + 1)")
    assert "XLA428" in _codes(flagged)
    ns = _run("TRACES = []\n" + flagged.replace("def f(t):\n", "def f(t):\n" + counter))
    ns["train"](jax.numpy.ones(3), 4)
    assert len(ns["TRACES"]) == 4
    same = _example_code(R.VALID, "f(Scaled(w, 0.5))")
    assert "XLA428" not in _codes(same)
    ns = _run("TRACES = []\n" + same.replace("def f(t):\n", "def f(t):\n" + counter))
    for _ in range(4):
        ns["run"](jax.numpy.ones(3))
    assert len(ns["TRACES"]) == 1


def test_xla428_per_call_float_in_register_dataclass_meta_field_traces_every_step():
    """XLA428 through ``jax.tree_util.register_dataclass``: ``scale`` is a meta field (aux data),
    so a new float per step traces every step (``pytree.dataclass_meta_field_float_new_value``);
    as a data field (the VALID example) it is a leaf and traces once
    (``pytree.dataclass_data_field_float_new_value``)."""
    from xlacheck.rules.pytree_aux_data_per_call_value import PytreeAuxDataPerCallValue as R
    counter = "    TRACES.append(1)\n"
    flagged = _example_code(R.INVALID, 'meta_fields=["scale"]')
    assert "XLA428" in _codes(flagged)
    ns = _run("TRACES = []\n" + flagged.replace("def step(t):\n", "def step(t):\n" + counter))
    ns["train"](jax.numpy.ones(3), 4)
    assert len(ns["TRACES"]) == 4
    leaf = _example_code(R.VALID, 'data_fields=["w", "scale"]')
    assert "XLA428" not in _codes(leaf)
    ns = _run("TRACES = []\n" + leaf.replace("def step(t):\n", "def step(t):\n" + counter))
    ns["train"](jax.numpy.ones(3), 4)
    assert len(ns["TRACES"]) == 1


def test_xla420_method_jitted_once_while_bound_keeps_the_first_attribute_value():
    """XLA420's stored-bound-method example: ``sample()`` splits ``self.key`` before each call of
    ``self.fn = jax.jit(self._draw)``, but the jitted object keeps the key of its first trace, so two
    calls draw the same noise; the set-up-only example is not flagged."""
    from xlacheck.rules.static_self_attribute_mutated import StaticSelfAttributeMutated as R
    stale = _example_code(R.INVALID, "self.key, _ = jax.random.split(self.key)")
    assert "XLA420" in _codes(stale)
    ns = _run(stale)
    sampler = ns["Sampler"](jax.random.PRNGKey(0))
    x = jax.numpy.zeros(3)
    first, second = sampler.sample(x), sampler.sample(x)
    assert bool((first == second).all())  # the second call used the first key
    assert "XLA420" not in _codes(_example_code(R.VALID, "    def sample(self, x):\n        return self.fn(x)"))
