"""XLA404: a ``tf.function`` created anew on every call of a function, or in a loop."""

from __future__ import annotations

import ast
from collections.abc import Iterable

from xlacheck import jax_cache
from xlacheck.analysis.contexts import Level
from xlacheck.analysis.module_index import ModuleIndex
from xlacheck.analysis.per_step import (
    ONCE_FUNCTIONS,
    called_in_loop,
    called_only_outside_loops,
    called_over_data,
    per_batch_method,
    python_loops_around,
    reached_per_step,
    runs_step_fixed_times,
)
from xlacheck.analysis.tables import JAX_JIT_NAMES
from xlacheck.analysis.tables import TF_FUNCTION_NAMES as _TF_FUNCTION
from xlacheck.diagnostics import Severity
from xlacheck.rules._recompile_scope import in_test, jax_loop_varying_names, runs_traced, static_hash_kind
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

# Every compiler wrapper whose cache lives on the object it returns (jax.jit keys its cache on the
# wrapped callable too: a new lambda or closure per call compiles again).
_COMPILERS = _TF_FUNCTION | JAX_JIT_NAMES


# JAX transformations that return a new function object on every evaluation, with the measured
# rows that say a jax.jit of that new object compiles again (xlacheck/data/jax_cache_key.json).
# jax.pmap of a new jax.grad misses its cache the same way (seq.pmap_of_new_grad_per_call).
_TRANSFORM_ROWS: dict[str, tuple[str, ...]] = {
    "jax.grad": ("seq.jit_of_new_grad_per_call", "seq.pmap_of_new_grad_per_call"),
    "jax.value_and_grad": ("seq.jit_of_new_value_and_grad_per_call",),
    "jax.vmap": ("seq.jit_of_new_vmap_per_call",),
    "jax.jacrev": ("seq.jit_of_new_jacrev_per_call",),
    "jax.hessian": ("seq.jit_of_new_hessian_per_call",),
    "jax.checkpoint": ("seq.jit_of_new_checkpoint_per_call",),
    "jax.remat": ("seq.jit_of_new_checkpoint_per_call",),  # the same function as jax.checkpoint
}


def _shown(kind: str) -> str:
    return kind if kind.startswith("jax.") else "tf.function"


# Functions that run once per object or per program: creating a tf.function there is the fix.
class TfFunctionCreatedPerCall(ModuleRule):
    """
    ## What it does
    Flags `tf.function(...)` (call or decorator) evaluated inside a loop (not one kept in a cache
    per key, nor one built under `if fn is None:` into the name the loop reuses, or under `if not
    built:` whose body sets `built = True` and nothing else in the loop resets it: one iteration
    builds it, nor one the loop collects without calling it: `out.append(Pure(loss=jax.jit(...)))`, or a
    comprehension's element kept on the object or returned: `self.fns = {k: jax.jit(...) for k in keys}`),
    and a `tf.function`
    created inside a function body and then called in that same body, outside any loop, without
    being kept anywhere (not returned, not stored on `self` or in a cache): every call of the
    enclosing function builds a new `tf.function` and traces it once. Outside a loop, one built
    from the enclosing function's own parameters or locals (a closure over them,
    `tf.function(model)`, `jax.jit(partial(model.init))`, an object made from them, or one the
    call stores on `self`: `self._model = Net(cfg)` then `jax.jit(partial(self._model.init))`) is reported
    only with `--preview`: on real code those were one-off drivers (fit a model, init its
    parameters) about as often as per-step helpers; unless all it captures of the call are
    operands of arithmetic or comparisons (`jax.jit(lambda a, b: w * jnp.mean((a - b) ** 2))` in
    `weighted_mse(a, b, w)`): numbers baked into a numeric kernel as constants, a loss or metric
    helper that runs per step, where the drivers call or read attributes of what they capture
    (`model.init`, `sample_chain(num_results=...)`); or unless this file calls the enclosing
    function in a loop over data its caller receives (`[prediction(b) for b in batches]` with
    `batches` a parameter: a per-batch helper, not a one-off driver; a loop over a count of
    `self`, as tf_agents' samplers run inside a traced policy, is no such evidence), or the enclosing
    function is a method called per item by its role (`__call__` of a pipeline or predictor,
    `__getitem__`, `__iter__`, `on_epoch_end`, a collator; diffusers#1096: a Flax pipeline's
    `__call__` jitted a `partial` over its parameters and compiled on every call). Such a creation outside a
    loop is flagged only where the project shows the enclosing function reached per step: this
    file calls it in a loop (directly or through its callers), over data, by a per-item role, or
    another module calls it in a loop. Where no caller is in view (a helper another file calls, or
    that nothing calls) it is reported only with `--preview`: on real code those were one-off
    set-up steps and barriers (brax's `synchronize_hosts()`) as often as per-step helpers; one
    this file calls only outside loops and compiled code (a dry run) is never flagged; one whose
    every call sits under an `if` that does not also hold the creation (`if fast: f(x)`, an option
    a caller may never set) is reported only with `--preview`. A loop over a
    display of one item (`for t in [0.5]`) runs once and is no loop. A function that reuses its
    tf.function in a loop (a driver) and that this file
    calls in a loop is flagged; where the tf.function is built from the call's own state (a model
    per call: `validate(model)` over a list of models), only with `--preview` or when that loop
    walks data its caller receives, as above. The same holds for objects of a class of this
    file that owns a tf.function per
    instance (a `@tf.function` method, or `self.f = tf.function(...)`): one built in a loop, or
    on every call of a function that uses it there without keeping it, compiles again each time.
    A function that creates one, maps it over its input and returns the results
    (`return [step(x) for x in batches]`, or a list it appends them to: a predict or evaluate
    helper, called again for every data set) is flagged too, outside test code.
    No finding where the tf.function is created while an outer tf.function or `strategy.run`
    traces (once per outer trace), for TFLite composites (`experimental_implements`), or in test
    code (a test file or function: tests build one per parameter by design). The same
    for `jax.jit`/`jax.pmap` of a lambda, a `functools.partial`, a transformation written at the
    call (`jax.jit(jax.grad(loss))`, `value_and_grad`, `vmap`, `jacrev`, `hessian`, `checkpoint`: a
    new function object at every evaluation, even of a module-level `loss`; measured, the
    `seq.jit_of_new_*_per_call` rows of `xlacheck/data/jax_cache_key.json`), a bound method of a class of this
    file (`self.apply`, `Scaler(2.0).apply`; only where a loop here shows it runs per step:
    `jax.jit(self.init)` in set-up code runs once; optax's `tx.update` is a stored function, not a
    bound method, and hits the cache) or a
    function defined in the enclosing function (JAX caches on the wrapped callable, so
    `jax.jit(module_function)` per call hits the cache); and a jitted local function that the
    enclosing function runs a fixed number of times (`for _ in range(3)`), which makes it a
    computation its callers repeat rather than a driver over data (jax issue 4572). A jitted local
    function handed to a transformation that is called at once (`jax.value_and_grad(loss_fn)(p, b)`,
    equinox#307) is called there, not kept; and a call that is the whole body of a forwarder
    (`def policy(obs): return agent.act(obs)`) runs as often as the forwarder does (jax#4645). Objects of a
    class that owns a jax.jit cache per instance count as tf.function owners do: `self.f =
    jax.jit(self.m)`, or a method jitted with `self` static in a class that hashes by identity. And a
    factory of this file that returns such a new compiled function, called and dropped at once
    (`make_update(lr)(params, grads)`) where the enclosing function runs per step, or called in a
    loop whose body then calls the result (`step = make_step(model, lr)` at the start of every
    epoch). A `@property` that returns such a new compiled function is a factory read as an
    attribute: flagged where a method of its class that runs per step calls it at once
    (`self.image_encoder(images)`, keras-cv#995), not for a `cached_property` or one that returns
    what it stored on `self`.

    ## Why is this bad?
    A `tf.function` caches its traces on the function object. A fresh object has an empty
    cache, so each call traces the Python code again and, with `jit_compile=True` or on a TPU,
    compiles it again with XLA (seconds per call instead of microseconds). TensorFlow's
    "excessive retracing" warning names exactly this case: "creating @tf.function repeatedly in
    a loop".

    ## Example
    ```python
    def compiled_loss(y_true, y_pred):
        fast = tf.function(_loss, jit_compile=True)
        return fast(y_true, y_pred)
    ```

    ## Use instead
    ```python
    _fast_loss = tf.function(_loss, jit_compile=True)  # once, at module level (or in __init__)

    def compiled_loss(y_true, y_pred):
        return _fast_loss(y_true, y_pred)
    ```

    ## Fix safety
    No automatic fix: where the function should live (module, `__init__`, a cache) is a design
    choice.
    """

    code = "XLA404"
    fix = None
    name = "tf-function-created-per-call"
    severity = Severity.RECOMPILE

    VALID = (
        Example("import tensorflow as tf\ndef _loss(a, b):\n    return tf.reduce_mean(a - b)\n"
                "_fast = tf.function(_loss, jit_compile=True)\ndef loss(a, b):\n    return _fast(a, b)\n"),
        Example("import tensorflow as tf\ndef train(model, batches):\n    @tf.function\n    def step(x):\n"
                "        return model(x)\n    for x in batches:\n        step(x)\n"),
        Example("import tensorflow as tf\ndef make_step(model):\n    step = tf.function(model.__call__, jit_compile=True)\n"
                "    return step\n"),
        Example("import tensorflow as tf\nclass T:\n    def __init__(self, f):\n        self.step = tf.function(f)\n"),
        Example("import tensorflow as tf\nclass Detector:\n    def __init__(self):\n"
                "        self._forward = tf.function(self.forward, jit_compile=True)\n"
                "    def forward(self, x):\n        return tf.reduce_max(x, axis=-1)\n"
                "DETECTOR = Detector()\ndef detect(x):\n    return DETECTOR._forward(x)\n"
                "def make_detector():\n    detector = Detector()\n    return detector\n"),
        Example("import jax\nimport jax.numpy as jnp\ndef _mse(x, y):\n    return jnp.mean((x - y) ** 2)\n"
                "def mse(a, b):\n    return jax.jit(_mse)(a, b)\n"),
        Example("import jax\ndef init_state(model, rng, x):\n    return jax.jit(model.init)(rng, x)\n"),
        Example("import jax\nimport dataclasses\nfrom functools import partial\n@dataclasses.dataclass(frozen=True)\n"
                "class Scorer:\n    k: float = 2.0\n    @partial(jax.jit, static_argnums=0)\n    def score(self, x):\n"
                "        return x * self.k\ndef score_all(xs):\n    return [Scorer().score(x) for x in xs]\n"),
        Example("import jax\ndef train(p, batches):\n    def step(p, b):\n        return p - 0.1 * b\n"
                "    for b in batches:\n        p = jax.jit(step)(p, b)\n    return p\n"),
        Example("import jax\ndef step(tx, g, s):\n    return jax.jit(tx.update)(g, s)\n"
                "def train(tx, grads, s):\n    for g in grads:\n        s = step(tx, g, s)\n"),
        Example("import tensorflow as tf\ndef dry_run(model, batch):\n    @tf.function\n    def one(b):\n        return model(b)\n"
                "    return one(batch)\ndef train(model, batches):\n    dry_run(model, batches[0])\n"),
        Example("import jax\ndef make_update(lr):\n    @jax.jit\n    def update(p, g):\n        return p - lr * g\n"
                "    return update\ndef main(p, g):\n    update = make_update(0.1)\n    for _ in range(3):\n"
                "        p = update(p, g)\n    return p\n"),
        Example("import tensorflow as tf\ndef make_step(w):\n    @tf.function(jit_compile=True)\n"
                "    def step(x, lr):\n        return w * x * lr\n    return step\n"
                "def train(w, batches, epochs):\n    step = make_step(w)\n    for epoch in range(epochs):\n"
                "        for x in batches:\n            step(x, tf.constant(0.1))\n"),
        # a test compiles once per parameter by design (tensorflow/probability's XLA tests)
        Example("import tensorflow as tf\ndef test_xla_sample(x):\n    for n in 1, 5:\n"
                "        @tf.function(jit_compile=True)\n        def f(x):\n            return x[:n] * 2.0\n"
                "        f(x)\n"),
        # a helper of a TestCase subclass is test code too (tensorflow/probability's spaces_test_util)
        Example("import tensorflow as tf\nclass SpacesTest(tf.test.TestCase):\n    def _check(self, bijector, x):\n"
                "        @tf.function\n        def log_prob(x):\n            return bijector(x) * 2.0\n"
                "        return log_prob(x)\n"),
        # built from the call's own parameters or locals (a closure over them, tf.function(model),
        # an object made from them): only with --preview, one-off drivers as often as per-step helpers
        Example("import tensorflow as tf\ndef predict(model, x):\n"
                "    return tf.function(model, jit_compile=True)(x)\n"),
        Example("import tensorflow as tf\ndef forward(model, x):\n    @tf.function(jit_compile=True)\n"
                "    def run(v):\n        return model(v)\n    return run(x)\n"),
        Example("import jax\ndef init_params(model, rng, x):\n"
                "    return jax.jit(lambda r, v: model.init(r, v))(rng, x)\n"),
        Example("import tensorflow as tf\nclass Eraser:\n    def __init__(self, p):\n        self.p = p\n"
                "    @tf.function\n    def erase(self, x):\n        return x * self.p\n"
                "def random_erasing(x, p):\n    return Eraser(p).erase(x)\n"),
        # called in a loop over a count of `self`, not over data the caller receives (tf_agents'
        # samplers run inside the traced policy): no evidence of a per-batch helper
        Example("import tensorflow as tf\nclass Sampler:\n    def __init__(self, n):\n        self._n = n\n"
                "    def _one(self, model, x):\n        @tf.function\n        def run(v):\n"
                "            return model(v)\n        return run(x)\n"
                "    def sample(self, model, x):\n        return [self._one(model, x) for _ in range(self._n)]\n"),
        # one tf.function per distinct function the loop walks: each is traced once, and one built
        # before the loop could not serve them (google-deepmind/sonnet's per-device specializations)
        Example("import tensorflow as tf\ndef _cpu(x):\n    return x * 2.0\ndef _gpu(x):\n    return x + x\n"
                "SPECIALIZATIONS = {'CPU': _cpu, 'GPU': _gpu}\ndef trace_all(x):\n    out = {}\n"
                "    for device, fn in SPECIALIZATIONS.items():\n"
                "        out[device] = tf.function(fn, jit_compile=True)(x)\n"
                "    return out\n"),
        # uncertainty-baselines drug_cardiotoxicity: strategy.run(...) in a loop is no call of the file's own run()
        # (tf-real8)
        Example("""
            import tensorflow as tf


            def run(train_dataset, strategy, model, optimizer, steps_per_epoch, num_epochs):
                train_iterator = iter(train_dataset)

                @tf.function
                def train_step(iterator):
                    def step_fn(inputs):
                        with tf.GradientTape() as tape:
                            loss = tf.reduce_mean(model(inputs))
                        grads = tape.gradient(loss, model.trainable_variables)
                        optimizer.apply_gradients(zip(grads, model.trainable_variables))

                    for _ in tf.range(tf.cast(steps_per_epoch, tf.int32)):
                        strategy.run(step_fn, args=(next(iterator),))

                for _ in range(num_epochs):
                    train_step(train_iterator)


            def main(train_dataset, strategy, model, optimizer):
                run(train_dataset, strategy, model, optimizer, 100, 3)
        """),
        # one jit per resolution, built on a cache miss and kept in the cache (maxdiffusion
        # generate_flux_multi_res.py; tf-prec10)
        Example("""
            import functools

            import jax
            import jax.numpy as jnp


            def denoise(x, steps):
                return x * steps


            def generate(images, steps):
                jitted = {}
                out = []
                for x in images:
                    fn = jitted.get(x.shape, None)
                    if fn is None:
                        fn = jax.jit(functools.partial(denoise, steps=steps))
                        jitted[x.shape] = fn
                    out.append(fn(jnp.asarray(x)))
                return out
        """),
        # the jit's own out_shardings come from the iteration: one function per chunk either way
        # (maxdiffusion wan_pipeline.py weight loading; tf-prec10)
        Example("""
            import jax


            def place(arrays, shardings, chunks):
                placed = {}
                for chunk in chunks:
                    copy = jax.jit(lambda xs: xs, out_shardings=[shardings[i] for i in chunk])
                    for i, y in zip(chunk, copy([arrays[i] for i in chunk])):
                        placed[i] = y
                return placed
        """),
        # one function per item of a fixed collection of configurations, each reading its item:
        # one program per item, which none built before the loop could share (seed_rl's per-host
        # gRPC servers; tf-prec11)
        Example("""
            import tensorflow as tf


            class Learner:
                def init_server(self):
                    for host in self.hosts:
                        @tf.function(input_signature=[])
                        def pending():
                            return host.completed < 10
                        self.servers.append(pending)
        """),
        # a staged `for _ in tf.range(...)` loop traces its body once: the epoch function builds its
        # tf.function once per trace, not per epoch (seed_rl's PPO epochs; tf-prec11)
        Example("""
            import tensorflow as tf


            def single_epoch(model, x, n):
                @tf.function
                def train_on_minibatch(v):
                    return model(v)
                out = None
                for i in range(n):
                    out = train_on_minibatch(x[i])
                return out


            def training_step(model, x, epochs):
                out = single_epoch(model, x, 4)
                for _ in tf.range(epochs - 1):
                    out = single_epoch(model, x, 4)
                return out
        """),
        # built lazily on the first iteration into the name the loop reuses (algorithmic-efficiency's WMT decoding)
        Example("""
            import jax


            def translate(predict_step, params, batches):
                jitted = None
                out = []
                for batch in batches:
                    if jitted is None:
                        jitted = jax.jit(lambda p, b: predict_step(p, b))
                    out.append(jitted(params, batch))
                return out
        """),
        # the model this call builds and initializes: a one-off set-up driver (algorithmic-efficiency's
        # init_model_fn), like a local `model` (reported with --preview)
        Example("""
            import functools

            import jax
            import numpy as np


            class Workload:
                def init_model_fn(self, rng, make_model):
                    self._model = make_model()
                    init = jax.jit(functools.partial(self._model.init, train=False))
                    return init(rng, np.zeros((2, 8), np.float32))
        """),
        # the transformation of the jitted local is returned, not called: kept, so traced once
        Example("import jax\nimport jax.numpy as jnp\ndef make_grad():\n    @jax.jit\n    def loss_fn(p, v):\n"
                "        return jnp.mean((v @ p) ** 2)\n    return jax.value_and_grad(loss_fn)\n"),
        # a driver over a model each call receives, called once per model of a list it makes (rwightman/
        # efficientnet-jax validate()): it compiles per model anyway; reported only with --preview
        Example("import jax\ndef validate(model, batches):\n    step = jax.jit(lambda x: model(x) * 2.0)\n"
                "    for x in batches:\n        step(x)\ndef main(batches):\n    for model in build_models():\n"
                "        validate(model, batches)\n"),
        # built under a flag that the guarded body sets and nothing else in the loop resets: one iteration
        # builds it (google-research/l2p's review-session step)
        Example("import jax\ndef train(f, batches, review):\n    built = False\n    for i, b in enumerate(batches):\n"
                "        if i >= review and not built:\n            step = jax.jit(lambda x: f(x) * 2.0)\n"
                "            built = True\n        b = step(b)\n"),
        # one jit per item, collected and not called in the loop: each traces once, on its own first call
        Example("import jax\nfrom functools import partial\ndef purify(trainers, net):\n    out = []\n"
                "    for t in trainers:\n        pure = Pure(loss=jax.jit(partial(t.loss_fn, net)), name=t.name)\n"
                "        out.append(pure)\n    return tuple(out)\n"),
        # one jit per item of a comprehension whose collection is stored on the object (or returned): each
        # entry traces once, on its first call (JaxMARL's batch samplers; tests/xlacheck/test_kept_wrappers_truth.py)
        Example("import jax\nclass Rollout:\n    def __init__(self, env):\n"
                "        self.samplers = {a: jax.jit(jax.vmap(env.space(a).sample)) for a in env.agents}\n"
                "    def sample(self, a, keys):\n        return self.samplers[a](keys)\n"),
        # a property that returns the tf.function it stored once, a cached_property, and a property read
        # only in __init__: one function, one trace cache
        Example("import tensorflow as tf\nclass Pipe:\n    def __init__(self, enc):\n        self._enc = enc\n"
                "        self._fn = None\n    @property\n    def encoder(self):\n        if self._fn is None:\n"
                "            self._fn = tf.function(self._enc, jit_compile=True)\n        return self._fn\n"
                "    def encode(self, x):\n        return self.encoder(x)\n"),
        Example("import functools\nimport tensorflow as tf\nclass Pipe:\n    def __init__(self, enc):\n"
                "        self._enc = enc\n    @functools.cached_property\n    def encoder(self):\n"
                "        return tf.function(self._enc, jit_compile=True)\n"
                "    def encode(self, x):\n        return self.encoder(x)\n"),
        Example("import tensorflow as tf\nclass Pipe:\n    def __init__(self, enc, x):\n        self._enc = enc\n"
                "        self.warm = self.encoder(x)\n    @property\n    def encoder(self):\n"
                "        return tf.function(self._enc, jit_compile=True)\n"),
        # the same closure over the call's parameters in a method of no per-item role: maybe a one-off driver
        Example("import functools\nimport jax\ndef _denoise(params, x):\n    return x - params * x\n"
                "class Pipeline:\n    def generate(self, params, x):\n"
                "        run = jax.jit(functools.partial(_denoise, params))\n        return run(x)\n"),
        # no caller in view: a barrier another file calls once at the end of a run (brax's
        # synchronize_hosts) or a helper nothing calls; flagged only with --preview (docs/retrace33.md)
        Example("import jax\nimport jax.numpy as jnp\ndef synchronize_hosts():\n    x = jnp.ones([8])\n"
                "    return jax.pmap(lambda v: jax.lax.psum(v, 'i'), 'i')(x)\n"),
        Example("import tensorflow as tf\ndef _loss(a, b):\n    return tf.reduce_mean(a - b)\n"
                "def loss(a, b):\n    fast = tf.function(_loss, jit_compile=True)\n    return fast(a, b)\n"),
        # a loop over a display of one item runs its body once (jax-cfd's `for threshold in [0.5]`)
        Example("import jax\ndef make_metric(t):\n    @jax.jit\n    def metric(a, b):\n        return (a - b) > t\n"
                "    return metric\ndef summarize(a, b):\n    return [make_metric(t)(a, b) for t in [0.5]]\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\ndef _loss(a, b):\n    return tf.reduce_mean(a - b)\n"
                "def loss(a, b):\n    fast = tf.function(_loss, jit_compile=True)\n    return fast(a, b)\n"
                "def train(batches):\n    for a, b in batches:\n        loss(a, b)\n",
                expected=(
                    (5, 12, 'tf.function created inside `loss()` and called once per call: every call of `loss()` '
                            'builds a new function with an empty trace cache and traces/compiles it again; create '
                            'the tf.function once (module level, __init__, or a cache)'),
                )),
        Example("import tensorflow as tf\ndef evaluate(model, batches):\n    for x in batches:\n"
                "        step = tf.function(lambda v: model(v))\n        step(x)\n",
                expected=(
                    (4, 16, 'tf.function created inside a loop: each iteration builds a new function with an empty '
                            'trace cache, so it traces and compiles again; create it once, before the loop'),
                )),
        Example("import tensorflow as tf\ndef forward(x):\n    @tf.function(jit_compile=True)\n"
                "    def run(v):\n        return tf.nn.relu(v) * 2.0\n    return run(x)\n"
                "def evaluate(batches):\n    return [forward(x) for x in batches]\n",
                expected=(
                    (3, 6, 'tf.function created inside `forward()` and called once per call: every call of '
                           '`forward()` builds a new function with an empty trace cache and traces/compiles it '
                           'again; create the tf.function once (module level, __init__, or a cache)'),
                )),
        # a closure over the method's `self` only: the same object on every call, still a new function per call
        Example("import tensorflow as tf\nclass Model:\n    def __init__(self, lr):\n        self.lr = lr\n"
                "    def sample(self, x):\n        @tf.function(jit_compile=True)\n        def step(v):\n"
                "            return v * self.lr\n        return step(x)\n"
                "def run(model, xs):\n    for x in xs:\n        model.sample(x)\n",
                expected=(
                    (6, 10, 'tf.function created inside `sample()` and called once per call: every call of '
                            '`sample()` builds a new function with an empty trace cache and traces/compiles it '
                            'again; create the tf.function once (module level, __init__, or a cache)'),
                )),
        Example("import jax\ndef gather(x):\n    return jax.pmap(lambda v: jax.lax.all_gather(v, 'i'), 'i')(x)\n"
                "def sync_all(batches):\n    return [gather(b) for b in batches]\n",
                expected=(
                    (3, 12, 'jax.pmap created inside `gather()` and called once per call: every call of `gather()` '
                            'builds a new function with an empty trace cache and traces/compiles it again; create the '
                            'jax.pmap once (module level, __init__, or a cache)'),
                )),
        Example("import tensorflow as tf\nclass Detector:\n    def __init__(self):\n"
                "        self._forward = tf.function(self.forward, jit_compile=True)\n"
                "    def forward(self, x):\n        return tf.reduce_max(x, axis=-1)\n"
                "def detect(x):\n    detector = Detector()\n    return detector._forward(x)\n"
                "def detect_all(images):\n    return [detect(x) for x in images]\n",
                expected=(
                    (8, 16, 'a new `Detector` is built on every call of `detect()`: its tf.function `_forward` '
                            'belongs to the instance, so each new object traces and compiles it again; build the '
                            'object once and reuse it'),
                )),
        Example("import tensorflow as tf\nclass Scorer:\n    @tf.function(jit_compile=True)\n"
                "    def score(self, x):\n        return x * 2.0\n"
                "def score_all(xs):\n    return [Scorer().score(x) for x in xs]\n",
                expected=(
                    (7, 13, 'a new `Scorer` is built on every call of `score_all()` (in a loop): its tf.function '
                            '`score` belongs to the instance, so each new object traces and compiles it again; build '
                            'the object once and reuse it'),
                )),
        Example("import jax\nfrom functools import partial\ndef _loss(model, params, x):\n    return model(params, x)\n"
                "def evaluate(model, params, batches):\n"
                "    return [jax.jit(partial(_loss, model))(params, x) for x in batches]\n",
                expected=(
                    (6, 13, 'jax.jit created inside a loop: each iteration builds a new function with an empty trace '
                            'cache, so it traces and compiles again; create it once, before the loop'),
                )),
        Example("import jax\ndef make_update(lr):\n    @jax.jit\n    def update(p, g):\n        return p - lr * g\n"
                "    return update\ndef run_trial(p, g, lr):\n    return make_update(lr)(p, g)\n"
                "def sweep(p, g, rates):\n    return [run_trial(p, g, lr) for lr in rates]\n",
                expected=(
                    (8, 12, '`make_update()` returns a new jax.jit function and `run_trial()` calls it once and '
                            'drops it: every evaluation traces and compiles again; build it once and reuse it, passing '
                            'what changes (a learning rate) as an argument'),
                )),
        Example("import jax\nclass Scaler:\n    def __init__(self, s):\n        self.s = s\n"
                "    def apply(self, x):\n        return x * self.s\n"
                "def predict(x):\n    return jax.jit(Scaler(2.0).apply)(x)\n"
                "def evaluate(batches):\n    return [predict(x) for x in batches]\n",
                expected=(
                    (8, 12, 'jax.jit created inside `predict()` and called once per call: every call of `predict()` '
                            'builds a new function with an empty trace cache and traces/compiles it again; create the '
                            'jax.jit once (module level, __init__, or a cache)'),
                )),
        Example("import jax\ndef simulate(state, rates):\n    @jax.jit\n    def step(s):\n"
                "        return s + 0.1 * (rates @ s - s)\n    for _ in range(3):\n        state = step(state)\n"
                "    return state\ndef run(state, rates):\n    return simulate(state, rates)\n"
                "def sweep(state, all_rates):\n    return [run(state, r) for r in all_rates]\n",
                expected=(
                    (3, 6, 'jax.jit created inside `simulate()` and run a fixed number of times per call: every call '
                           'of it builds a new function with an empty cache and traces/compiles it again; define the '
                           'jitted function once, outside, and pass what it closes over as arguments'),
                )),
        Example("import jax\nfrom functools import partial\nclass Scorer:\n"
                "    @partial(jax.jit, static_argnums=0)\n    def score(self, x):\n        return x * 2.0\n"
                "def score_all(xs):\n    return [Scorer().score(x) for x in xs]\n",
                expected=(
                    (8, 13, 'a new `Scorer` is built on every call of `score_all()` (in a loop): its jax.jit '
                            'function `score` belongs to the instance, so each new object traces and compiles it '
                            'again; build the object once and reuse it'),
                )),
        Example("import tensorflow as tf\nclass PeakModel:\n    def run_predictions(self, batches):\n"
                "        @tf.function(jit_compile=True)\n        def predict_step(x):\n            return x * 2.0\n"
                "        return tf.concat([predict_step(x) for x in batches], axis=0)\n"
                "def score(model, batches):\n    return model.run_predictions(batches)\n"
                "def score_all(model, sets):\n    return [score(model, s) for s in sets]\n",
                expected=(
                    (4, 10, 'tf.function created inside `run_predictions()`, which maps it over its input and returns '
                            'the results (a predict/evaluate helper, called again for every data set): each call '
                            'builds a new function with an empty trace cache and compiles it again; create the '
                            'tf.function once (__init__, module level or a cache)'),
                )),
        Example("import tensorflow as tf\ndef make_step(w, lr):\n    @tf.function(jit_compile=True)\n"
                "    def step(x):\n        return w * x * lr\n    return step\n"
                "def train(w, batches, epochs):\n    for epoch in range(epochs):\n"
                "        step = make_step(w, 0.1 * 0.5 ** epoch)\n        for x in batches:\n            step(x)\n",
                expected=(
                    (9, 16, '`make_step()` builds a new tf.function on every iteration of the loop that calls its '
                            'result: each one starts with an empty trace cache and compiles again; build it once '
                            'before the loop and pass what changes as an argument'),
                )),
        # what it captures of the call is only arithmetic operands: numbers baked into a numeric kernel
        Example("import jax\nimport jax.numpy as jnp\ndef weighted_mse(a, b, w):\n"
                "    fast = jax.jit(lambda x, y: w * jnp.mean((x - y) ** 2))\n    return fast(a, b)\n"
                "def total(pairs, w):\n    return sum(weighted_mse(a, b, w) for a, b in pairs)\n",
                expected=(
                    (4, 12, 'jax.jit created inside `weighted_mse()` and called once per call: every call of '
                            '`weighted_mse()` builds a new function with an empty trace cache and traces/compiles it '
                            'again; create the jax.jit once (module level, __init__, or a cache)'),
                )),
        # built from the call's own state (tf.function(model)), and this file calls the function in a loop:
        # a per-batch helper, flagged without --preview (tensorflow/tensorflow#43501)
        Example("import tensorflow as tf\ndef prediction(model, x):\n"
                "    predict = tf.function(model, jit_compile=True)\n    return predict(x)\n"
                "def serve(model, batches):\n    return [prediction(model, b) for b in batches]\n",
                expected=(
                    (3, 15, 'tf.function created inside `prediction()` and called once per call: every call of '
                            '`prediction()` builds a new function with an empty trace cache and traces/compiles it '
                            'again; create the tf.function once (module level, __init__, or a cache)'),
                )),
        # jax.grad of a module-level loss is a new function on every evaluation (seq.jit_of_new_grad_per_call)
        Example("import jax\nimport jax.numpy as jnp\ndef loss(w, x):\n    return jnp.mean((x @ w) ** 2)\n"
                "def sgd_step(w, x, lr):\n    return w - lr * jax.jit(jax.grad(loss))(w, x)\n"
                "def fit(w, batches):\n    for x in batches:\n        w = sgd_step(w, x, 0.1)\n    return w\n",
                expected=(
                    (6, 21, 'jax.jit created inside `sgd_step()` and called once per call: every call of '
                            '`sgd_step()` builds a new function with an empty trace cache and traces/compiles it '
                            'again; create the jax.jit once (module level, __init__, or a cache)'),
                )),
        # called through a transformation at once (equinox#307): the jitted local is new at every call
        Example("import jax\nimport jax.numpy as jnp\ndef train(params, x):\n    @jax.jit\n    def loss_fn(p, v):\n"
                "        return jnp.mean((v @ p) ** 2)\n    loss, grads = jax.value_and_grad(loss_fn)(params, x)\n"
                "    return params - 0.1 * grads\n"
                "def fit(params, batches):\n    for x in batches:\n        params = train(params, x)\n"
                "    return params\n",
                expected=(
                    (4, 6, 'jax.jit created inside `train()` and called once per call: every call of `train()` '
                           'builds a new function with an empty trace cache and traces/compiles it again; create the '
                           'jax.jit once (module level, __init__, or a cache)'),
                )),
        # its only caller forwards to it (jax#4645): it runs as often as the forwarder, which a loop here calls
        Example("import jax\nimport jax.numpy as jnp\nclass Agent:\n    def __init__(self, params):\n"
                "        self.params = params\n    def act(self, obs):\n        @jax.jit\n        def pick(p, o):\n"
                "            return jnp.argmax(o @ p)\n        return pick(self.params, obs)\n"
                "AGENT = Agent(jnp.eye(3))\ndef policy(obs):\n    return AGENT.act(obs)\n"
                "def rollout(observations):\n    return [policy(o) for o in observations]\n",
                expected=(
                    (7, 10, 'jax.jit created inside `act()` and called once per call: every call of `act()` builds a '
                            'new function with an empty trace cache and traces/compiles it again; create the jax.jit '
                            'once (module level, __init__, or a cache)'),
                )),
        # the flag is reset outside the guard: any iteration may build it again
        Example("import jax\ndef train(f, batches):\n    built = False\n    for b in batches:\n"
                "        if not built:\n            step = jax.jit(lambda x: f(x) * 2.0)\n"
                "        built = b is None\n        step(b)\n",
                expected=(
                    (6, 20, 'jax.jit created inside a loop: each iteration builds a new function with an empty trace '
                            'cache, so it traces and compiles again; create it once, before the loop'),
                )),
        # a property that builds the compiled function on every access, called at once (keras-cv#995)
        Example("import tensorflow as tf\nclass Pipe:\n    def __init__(self, enc):\n        self._enc = enc\n"
                "    @property\n    def encoder(self):\n        return tf.function(self._enc, jit_compile=True)\n"
                "    def encode(self, x):\n        return self.encoder(x)\n"
                "def encode_all(pipe, texts):\n    return [pipe.encode(t) for t in texts]\n",
                expected=(
                    (7, 16, 'tf.function created inside the property `encoder`, which `encode()` calls at once through '
                            '`self.encoder(...)`: every access builds a new function with an empty trace cache and '
                            'compiles it again; create the tf.function once (__init__ or a cache)'),
                )),
        # a pipeline's __call__ binds its parameters into a new partial and jits it (diffusers#1096)
        Example("import functools\nimport jax\ndef _denoise(params, x):\n    return x - params * x\n"
                "class Pipeline:\n    def __call__(self, params, x):\n"
                "        run = jax.jit(functools.partial(_denoise, params))\n        return run(x)\n",
                expected=(
                    (7, 15, 'jax.jit created inside `__call__()` and called once per call: every call of '
                            '`__call__()` builds a new function with an empty trace cache and traces/compiles it '
                            'again; create the jax.jit once (module level, __init__, or a cache)'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        index = ctx.index
        for call, name in index.calls:
            if name not in _COMPILERS:
                continue
            if call.args:
                self._check_creation(ctx, index, call, call)
            else:  # tf.function(jit_compile=True)(f): the outer call creates it
                outer = index.parent(call)
                if isinstance(outer, ast.Call) and outer.func is call:
                    self._check_creation(ctx, index, outer, call)
        self._check_instances(ctx, index)
        self._check_factories(ctx, index)
        self._check_property_factories(ctx, index)
        for info in ctx.facts.functions:
            node = info.node
            if isinstance(node, ast.Lambda) or info.parent is None:
                continue
            for dec in node.decorator_list:
                target = dec.func if isinstance(dec, ast.Call) else dec
                if index.aliases.resolve(target) in _COMPILERS:
                    self._check_creation(ctx, index, node, dec)

    def _check_creation(self, ctx: ModuleContext, index: ModuleIndex, node: ast.AST, where: ast.expr) -> None:
        if isinstance(where, ast.Call) and any(kw.arg == "experimental_implements" for kw in where.keywords):
            return  # a TFLite composite op: traced inside the caller's trace, by design
        kind = index.aliases.resolve(where.func if isinstance(where, ast.Call) else where) or "tf.function"
        if in_test(index, ctx.path, node):
            # a test compiles a handful of times by design: jax tests jit per case and per loop item,
            # TF tests build a tf.function per parameter (tensorflow/probability's *_test.py files)
            return
        if kind.startswith("jax."):
            # jax.jit caches on the wrapped callable: jax.jit(module_fn) again hits the cache (measured:
            # one trace for 3 wrappers); a lambda or a function defined here is new on every call.
            wrapped = node.args[0] if isinstance(node, ast.Call) and node.args else node
            if not (isinstance(wrapped, (ast.Lambda, ast.FunctionDef)) or self._partial(index, wrapped) or (
                    isinstance(wrapped, ast.Name) and self._defined_locally(index, wrapped))
                    or self._bound_method(index, wrapped) or self._new_transform(index, wrapped)):
                return
            if self._bound_method(index, wrapped) and not index.loops_around(node) and not any(
                    called_in_loop(index, f) for f in [index.function_of(node)] if f is not None):
                # `jax.jit(model.init)(rng, x)` in a set-up function is a one-off (flax examples):
                # a bound method counts only where a loop here shows it runs per step
                return
            loops = index.loops_around(node)
            if loops and isinstance(wrapped, ast.Name) and not any(
                    (isinstance(n, ast.FunctionDef) and n.name == wrapped.id) or (isinstance(n, ast.Assign) and any(
                        isinstance(t, ast.Name) and t.id == wrapped.id for t in n.targets))
                    for n in ast.walk(loops[0])):
                return  # the same local function object on every iteration: jax.jit's cache hits
        func = index.function_of(node)
        if func is not None and runs_traced(ctx.facts, index, func):
            return  # created while an outer tf.function traces: once per outer trace, not per step
        if python_loops_around(index, node) and not _wraps_loop_target(index, node) and not _cached(index, node) \
                and not _configured_per_iteration(index, node) and not _one_program_per_item(index, node) \
                and not _kept_per_item(index, node):
            ctx.report(self, where, f"{_shown(kind)} created inside a loop: each iteration builds a new function with "
                                    "an empty trace cache, so it traces and compiles again; create it once, before the loop")
            return
        if func is None or isinstance(func, ast.Lambda) or func.name in ONCE_FUNCTIONS or func.name.startswith("test"):
            return
        info = ctx.facts.by_node.get(id(func))
        if info is not None and info.level >= Level.GRAPH:
            return  # created while its enclosing function is traced (Keras call, strategy.run): once per trace
        parent = index.parent(node)
        if isinstance(parent, ast.Call) and parent.func is node:
            if _runs_per_step(ctx, index, func) \
                    and (ctx.preview or not _captures_call_state(index, func, node)
                     or _bakes_call_numbers(index, func, node) or called_over_data(index, func)
                    or per_batch_method(func)):
                self._report_per_call(ctx, where, func.name, kind)
            return
        if isinstance(node, ast.FunctionDef):
            local = node.name
        elif isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
            local = parent.targets[0].id
        else:
            return  # stored on self, in a dict, returned...: kept, so traced once
        called_once = reused = False
        fixed_loops = True  # every reuse sits in `for _ in range(<literal>)`: a fixed amount of work per call
        guarded = True  # every call sits in a branch the creation is not in: it may never be traced
        for sub in index.scope_nodes(func):
            if isinstance(sub, ast.Name) and sub.id == local and isinstance(sub.ctx, ast.Load):
                use = index.parent(sub)
                if not (isinstance(use, ast.Call) and use.func is sub) and kind.startswith("jax.") \
                        and use is not None and _transformed_and_called(index, use, sub):
                    # `jax.value_and_grad(loss_fn)(params, batch)`: the transformed function is called
                    # at once and dropped, so the jitted local is called here, not kept
                    use = index.parent(use)
                if isinstance(use, ast.Call) and (use.func is sub or isinstance(use.func, ast.Call)
                                                  and _transformed_and_called(index, use.func, sub)):
                    guarded = guarded and _in_branch_without(index, use, node, func)
                    if index.loops_around(use) or index.function_of(use) is not func:
                        reused = True  # created once per call, reused many times inside it
                        fixed_loops = fixed_loops and runs_step_fixed_times(index, use, func)
                    else:
                        called_once = True
                else:
                    return  # escapes (returned, stored, passed on): may be reused
        if guarded and (called_once or reused) and not ctx.preview:
            # every call is under a condition the creation is not (`if 'mask' in batch: psum(...)`): whether
            # it is ever traced is unknown (sam's eval psum, on a branch no dataset takes)
            return
        if reused:
            # Fine for a function that runs once (a training loop); a new compile per call when this
            # file calls the enclosing function over and over (predictions per batch of data sets).
            # a driver built from the call's own state (`jax.jit(lambda x: forward(model, x))` with a model
            # each call makes) compiles for each call anyway: as for the per-call creations below, only with
            # --preview, unless the loop that calls it walks data its caller receives
            if called_in_loop(index, func) and (
                    ctx.preview or not _captures_call_state(index, func, node)
                    or _bakes_call_numbers(index, func, node) or called_over_data(index, func)
                    or per_batch_method(func)):
                ctx.report(self, where, f"{_shown(kind)} created inside `{func.name}()`, which this file calls in a loop: "
                                        "each call builds a new function with an empty trace cache and compiles it "
                                        f"again; create the {_shown(kind)} once (__init__, module level or a cache)")
            elif self._returns_mapped_results(index, func, local) and not in_test(index, ctx.path, func) \
                    and (ctx.preview or reached_per_step(index, func)):
                ctx.report(self, where, f"{_shown(kind)} created inside `{func.name}()`, which maps it over its "
                                        "input and returns the results (a predict/evaluate helper, called again for "
                                        "every data set): each call builds a new function with an empty trace cache "
                                        "and compiles it again; create the "
                                        f"{_shown(kind)} once (__init__, module level or a cache)")
            elif kind.startswith("jax.") and fixed_loops and _runs_per_step(ctx, index, func):
                # a jitted step run a fixed number of times (`for _ in range(3)`) inside the function:
                # the function is a computation callers repeat, not a driver over data (jax #4572)
                ctx.report(self, where, f"{_shown(kind)} created inside `{func.name}()` and run a fixed number of "
                                        "times per call: every call of it builds a new function with an empty cache "
                                        "and traces/compiles it again; define the jitted function once, outside, "
                                        "and pass what it closes over as arguments")
            return
        if called_once and _runs_per_step(ctx, index, func) \
                and (ctx.preview or not _captures_call_state(index, func, node)
                     or _bakes_call_numbers(index, func, node) or called_over_data(index, func)
                    or per_batch_method(func)):
            self._report_per_call(ctx, where, func.name, kind)

    # -- factories that return a new compiled function, called and discarded per call ------
    def _check_factories(self, ctx: ModuleContext, index: ModuleIndex) -> None:
        """``make_update(lr)(params, grads)``: a function of this file that returns a compiled function
        it creates (a decorated local def, or a wrapper of a lambda or local def), whose result is
        called at once and dropped: each evaluation compiles again."""
        factories: dict[str, str] = {}
        for info in ctx.facts.functions:
            node = info.node
            if isinstance(node, ast.Lambda) or info.parent is not None or info.cls is not None:
                continue
            kind = self._returned_compiler(index, node)
            if kind is not None:
                factories[node.name] = kind
        if not factories:
            return
        for call, _ in index.calls:
            if not (isinstance(call.func, ast.Name) and call.func.id in factories):
                continue
            parent = index.parent(call)
            if self._rebuilt_in_loop(index, call, parent):
                ctx.report(self, call, f"`{call.func.id}()` builds a new {_shown(factories[call.func.id])} on every "
                                       "iteration of the loop that calls its result: each one starts with an empty "
                                       "trace cache and compiles again; build it once before the loop and pass what "
                                       "changes as an argument")
                continue
            if not (isinstance(parent, ast.Call) and parent.func is call):
                continue
            func = index.function_of(call)
            if not python_loops_around(index, call):
                if func is None or isinstance(func, ast.Lambda) or func.name in ONCE_FUNCTIONS \
                        or func.name.startswith("test") or runs_traced(ctx.facts, index, func) \
                        or not _runs_per_step(ctx, index, func):
                    continue
            owner = "a loop" if python_loops_around(index, call) else f"`{func.name}()`"  # type: ignore[union-attr]
            kind = factories[call.func.id]
            ctx.report(self, call, f"`{call.func.id}()` returns a new {_shown(kind)} function and {owner} calls it "
                                   "once and drops it: every evaluation traces and compiles again; build it once and "
                                   "reuse it, passing what changes (a learning rate) as an argument")

    def _check_property_factories(self, ctx: ModuleContext, index: ModuleIndex) -> None:
        """A ``@property`` that returns a compiled function it creates (keras-cv#995's lazy
        ``image_encoder``), called at once through ``self.<property>(...)`` by a method of its class
        that runs per step: every access is a new function with an empty trace cache, as a factory's
        call is (``make_update(lr)(params, grads)``). A ``functools.cached_property`` or a property
        that returns what it stored on ``self`` keeps one, and is not this."""
        for info in ctx.facts.functions:
            node = info.node
            if isinstance(node, ast.Lambda) or info.cls is None or info.parent is not None \
                    or not any(isinstance(dec, ast.Name) and dec.id == "property" for dec in node.decorator_list):
                continue
            kind = self._returned_compiler(index, node)
            created = self._returned_creation(index, node)
            if kind is None or created is None or in_test(index, ctx.path, node):
                continue
            for method in info.cls.methods.values():
                user = method.node
                if isinstance(user, ast.Lambda) or user is node or user.name in ONCE_FUNCTIONS \
                        or user.name.startswith("test"):
                    continue
                uses = [sub for sub in index.scope_nodes(user)
                        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute)
                        and sub.func.attr == node.name and isinstance(sub.func.value, ast.Name)
                        and sub.func.value.id == "self"]
                if not uses or (not any(index.loops_around(use) for use in uses) and (
                        runs_traced(ctx.facts, index, user) or not _runs_per_step(ctx, index, user))):
                    continue
                ctx.report(self, created, f"{_shown(kind)} created inside the property `{node.name}`, which "
                                          f"`{user.name}()` calls at once through `self.{node.name}(...)`: every "
                                          "access builds a new function with an empty trace cache and compiles it "
                                          f"again; create the {_shown(kind)} once (__init__ or a cache)")
                break

    def _returned_creation(self, index: ModuleIndex, func: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.Call | None:
        """The new compiled function ``func`` returns as ``return <compiler>(f, ...)``, where a property
        report points."""
        for sub in index.scope_nodes(func):
            if isinstance(sub, ast.Return) and isinstance(sub.value, ast.Call) and sub.value.args \
                    and index.function_of(sub) is func:
                kind = index.aliases.resolve(sub.value.func)
                if kind in _COMPILERS and self._new_callable(index, sub.value.args[0], kind):
                    return sub.value
        return None

    @staticmethod
    def _rebuilt_in_loop(index: ModuleIndex, call: ast.Call, parent: ast.AST | None) -> bool:
        """``name = factory(...)`` inside a loop whose body then calls ``name(...)``: a new
        compiled function per iteration, each traced and compiled again."""
        loops = [loop for loop in index.loops_around(call) if isinstance(loop, (ast.For, ast.AsyncFor, ast.While))]
        if not loops or not (isinstance(parent, ast.Assign) and len(parent.targets) == 1
                             and isinstance(parent.targets[0], ast.Name)):
            return False
        name = parent.targets[0].id
        return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name
                   for n in ast.walk(loops[0]))

    def _returned_compiler(self, index: ModuleIndex, func: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
        """The compiler (tf.function, jax.jit) of a function ``func`` creates and returns, or None."""
        local: dict[str, str] = {}
        returned: list[ast.expr] = []
        for sub in index.scope_nodes(func):
            if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)) and index.function_of(sub) is func:
                for dec in sub.decorator_list:
                    kind = index.aliases.resolve(dec.func if isinstance(dec, ast.Call) else dec)
                    if kind in _COMPILERS:
                        local[sub.name] = kind
            elif isinstance(sub, ast.Assign) and len(sub.targets) == 1 and isinstance(sub.targets[0], ast.Name) \
                    and isinstance(sub.value, ast.Call) and sub.value.args:
                kind = index.aliases.resolve(sub.value.func)
                if kind in _COMPILERS and self._new_callable(index, sub.value.args[0], kind):
                    local[sub.targets[0].id] = kind
            elif isinstance(sub, ast.Return) and sub.value is not None and index.function_of(sub) is func:
                returned.append(sub.value)
        for value in returned:
            if isinstance(value, ast.Name) and value.id in local:
                return local[value.id]
            if isinstance(value, ast.Call) and value.args:
                kind = index.aliases.resolve(value.func)
                if kind in _COMPILERS and self._new_callable(index, value.args[0], kind):
                    return kind
        return None

    @staticmethod
    def _partial(index: ModuleIndex, wrapped: ast.AST) -> bool:
        """``functools.partial(f, ...)``: a new object on every evaluation, which JAX's cache (keyed
        on the callable) has never seen."""
        if not isinstance(wrapped, ast.Call):
            return False
        f = wrapped.func
        return (isinstance(f, ast.Name) and f.id == "partial") or (isinstance(f, ast.Attribute) and f.attr == "partial"
                                                                  and isinstance(f.value, ast.Name)
                                                                  and f.value.id == "functools")

    def _new_callable(self, index: ModuleIndex, wrapped: ast.expr, kind: str | None) -> bool:
        """A tf.function of anything, a jax.jit of a lambda, a partial or a local def (JAX caches on the callable)."""
        if kind is None or not kind.startswith("jax."):
            return True
        return isinstance(wrapped, ast.Lambda) or self._partial(index, wrapped) or (
            isinstance(wrapped, ast.Name) and self._defined_locally(index, wrapped)) \
            or self._bound_method(index, wrapped) or self._new_transform(index, wrapped)

    @staticmethod
    def _new_transform(index: ModuleIndex, wrapped: ast.AST) -> bool:
        """``jax.grad(loss)``, ``jax.value_and_grad``, ``jax.vmap``, ``jax.jacrev``, ``jax.hessian``,
        ``jax.checkpoint`` written inside the ``jax.jit(...)``/``jax.pmap(...)``: each evaluation
        returns a new function object, so the cache, keyed on the callable, misses every time even
        for a module-level ``loss`` (measured on jax 0.10.2, the ``seq.jit_of_new_*_per_call`` rows
        of ``xlacheck/data/jax_cache_key.json``: 3 calls, 3 compiles), where ``jax.jit(loss)``
        itself hits it (``seq.jit_module_function_in_function_called_in_loop``)."""
        if not isinstance(wrapped, ast.Call):
            return False
        rows = _TRANSFORM_ROWS.get(index.aliases.resolve(wrapped.func) or "")
        return rows is not None and all(jax_cache.recompiles(r) for r in rows) \
            and not jax_cache.recompiles("seq.jit_module_function_in_function_called_in_loop")

    @staticmethod
    def _bound_method(index: ModuleIndex, wrapped: ast.AST) -> bool:
        """``self.method`` or ``Cls(...).method`` (also through a name bound to ``Cls(...)``), with
        ``method`` defined in ``Cls``, a class of this file: a new bound-method object on every
        access, so JAX's cache, keyed on the callable, never hits (measured on jax 0.10.2: three
        ``jax.jit(m.apply)(x)`` on the same ``m`` trace three times). A function stored on an
        object (optax's ``tx.update``, a NamedTuple field) is the same object every time and hits
        the cache (one trace for three), so an attribute of an object of unknown class is not one."""
        if not isinstance(wrapped, ast.Attribute):
            return False
        owner = wrapped.value
        cls: ast.ClassDef | None = None
        if isinstance(owner, ast.Name) and owner.id == "self":
            func = index.function_of(wrapped)
            while func is not None and not isinstance(index.parent(func), ast.ClassDef):
                func = index.function_of(func)
            parent = index.parent(func) if func is not None else None
            cls = parent if isinstance(parent, ast.ClassDef) else None
        else:
            if isinstance(owner, ast.Name):
                func = index.function_of(wrapped)
                def bound_in(nodes: Iterable[ast.AST], name: str) -> list[ast.expr]:
                    return [n.value for n in nodes if isinstance(n, ast.Assign)
                            and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)]
                values = bound_in(index.scope_nodes(func), owner.id) if func is not None else []
                if func is None or not values and not any(
                        isinstance(n, ast.arg) and n.arg == owner.id for n in ast.walk(func.args)):
                    values = bound_in(index.tree.body, owner.id)  # a module-level object
                owner = values[0] if len(values) == 1 else owner
            if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name):
                cls = next((c for c in ast.walk(index.tree) if isinstance(c, ast.ClassDef)
                            and c.name == owner.func.id), None)
        return cls is not None and any(isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and m.name == wrapped.attr
                                       and not any(isinstance(d, ast.Name) and d.id == "staticmethod"
                                                   for d in m.decorator_list)
                                       for m in cls.body)

    # -- objects that own tf.functions, constructed per call --------------------------------
    @staticmethod
    def _compiling_classes(index: ModuleIndex) -> dict[str, str]:
        """Classes of this file that own a tf.function per instance (a decorated method, or
        ``self.f = tf.function(...)`` in a method): class name -> the tf.function's name."""
        out: dict[str, str] = {}
        for tfns in index.tf_functions.values():
            for tfn in tfns:
                anchor = tfn.definition if tfn.definition is not None and tfn.is_method else tfn.wrapper
                func = anchor if isinstance(anchor, (ast.FunctionDef, ast.AsyncFunctionDef)) else index.function_of(anchor)
                owner = index.parent(func) if func is not None else None
                if isinstance(owner, ast.ClassDef) and tfn.is_method:
                    out.setdefault(owner.name, tfn.name)
        return out

    @staticmethod
    def _jax_compiling_classes(ctx: ModuleContext, index: ModuleIndex) -> dict[str, str]:
        """Classes of this file whose instances each own a jax.jit cache: ``self.f = jax.jit(self.m)``
        (a bound method of the new object), or a method jitted with ``self`` static in a class that
        hashes by identity (measured on jax 0.10.2: three new objects trace three times, either way)."""
        resolve = index.aliases.resolve
        out: dict[str, str] = {}
        if not any(info.jax for info in ctx.facts.functions) \
                and not any(name in JAX_JIT_NAMES for _, name in index.calls):
            return out  # nothing is jitted in this file: no class can own a jax.jit cache
        for cls in (n for n in ast.walk(index.tree) if isinstance(n, ast.ClassDef)):
            for method in (m for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))):
                info = ctx.facts.by_node.get(id(method))
                params = [a.arg for a in method.args.posonlyargs + method.args.args]
                if info is not None and info.jax and params and params[0] in info.static_params \
                        and static_hash_kind(index, cls.name) == "identity":
                    out.setdefault(cls.name, method.name)
                for sub in ast.walk(method):
                    if isinstance(sub, ast.Assign) and len(sub.targets) == 1 and isinstance(sub.value, ast.Call) \
                            and resolve(sub.value.func) in JAX_JIT_NAMES and sub.value.args \
                            and isinstance(sub.targets[0], ast.Attribute) \
                            and isinstance(sub.targets[0].value, ast.Name) and sub.targets[0].value.id == "self" \
                            and isinstance(sub.value.args[0], ast.Attribute) \
                            and isinstance(sub.value.args[0].value, ast.Name) and sub.value.args[0].value.id == "self":
                        out.setdefault(cls.name, sub.targets[0].attr)
        return out

    def _check_instances(self, ctx: ModuleContext, index: ModuleIndex) -> None:
        """``Detector().detect(x)`` per call: each new object holds a new tf.function with an empty
        trace cache (bound per instance), so every call of the enclosing function compiles again."""
        classes = self._compiling_classes(index)
        jax_classes = {name: method for name, method in self._jax_compiling_classes(ctx, index).items()
                       if name not in classes}
        classes.update(jax_classes)
        if not classes:
            return
        for call, _ in index.calls:
            if not (isinstance(call.func, ast.Name) and call.func.id in classes):
                continue
            if call.func.id in jax_classes and in_test(index, ctx.path, call):
                continue
            func = index.function_of(call)
            in_loop = bool(index.loops_around(call))
            if func is None or isinstance(func, ast.Lambda):
                if not in_loop:
                    continue  # module level, once
            elif not in_loop and (func.name in ONCE_FUNCTIONS or func.name.startswith("test")
                                  or runs_traced(ctx.facts, index, func)
                                  or not self._used_here_only(index, call, func)
                                  or not _runs_per_step(ctx, index, func)
                                  or not ctx.preview and _captures_call_state(index, func, call)):
                continue
            owner = f"`{func.name}()`" if func is not None and not isinstance(func, ast.Lambda) else "the loop"
            ctx.report(self, call, f"a new `{call.func.id}` is built on every call of {owner}"
                                   f"{' (in a loop)' if in_loop else ''}: its "
                                   f"{'jax.jit function' if call.func.id in jax_classes else 'tf.function'} "
                                   f"`{classes[call.func.id]}` "
                                   "belongs to the instance, so each new object traces and compiles it again; build "
                                   "the object once and reuse it")

    @staticmethod
    def _used_here_only(index: ModuleIndex, call: ast.Call, func: ast.AST) -> bool:
        """The new object is used in ``func`` to call a method and does not escape it (not
        returned, stored or passed on: then it may be reused)."""
        parent = index.parent(call)
        if isinstance(parent, ast.Attribute):
            return True  # Cls(...).method(...)
        if not (isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name)):
            return False
        name, used = parent.targets[0].id, False
        for sub in index.scope_nodes(func):
            if isinstance(sub, ast.Name) and sub.id == name and isinstance(sub.ctx, ast.Load):
                if not isinstance(index.parent(sub), ast.Attribute):
                    return False  # returned, stored, passed to a call: it escapes
                used = True
        return used

    @staticmethod
    def _defined_locally(index: ModuleIndex, name: ast.Name) -> bool:
        func = index.function_of(name)
        return func is not None and any(
            isinstance(n, (ast.FunctionDef, ast.Lambda)) and getattr(n, "name", None) == name.id
            or isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name.id for t in n.targets)
            and isinstance(n.value, ast.Lambda)
            for n in index.scope_nodes(func))

    @staticmethod
    def _returns_mapped_results(index: ModuleIndex, func: ast.FunctionDef | ast.AsyncFunctionDef, local: str) -> bool:
        """``func`` returns what the per-item calls of ``local`` produced: ``return [step(x) for x
        in xs]`` (maybe through ``tf.concat``/``tf.stack``/a name), or a list the loop appends
        ``step(x)`` to. A training loop that runs the step for its effect and returns nothing (or
        the last loss) is not such a helper: it runs once per program."""

        def calls_local(node: ast.AST) -> bool:
            return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == local
                       for n in ast.walk(node))

        collected: set[str] = set()
        for sub in index.scope_nodes(func):
            if isinstance(sub, ast.Assign) and isinstance(sub.value, (ast.ListComp, ast.GeneratorExp)) \
                    and calls_local(sub.value.elt):
                collected.update(t.id for t in sub.targets if isinstance(t, ast.Name))
            elif isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and sub.func.attr == "append" \
                    and isinstance(sub.func.value, ast.Name) and sub.args and calls_local(sub.args[0]):
                collected.add(sub.func.value.id)
        for sub in index.scope_nodes(func):
            if not isinstance(sub, ast.Return) or sub.value is None:
                continue
            for n in ast.walk(sub.value):
                if isinstance(n, (ast.ListComp, ast.GeneratorExp)) and calls_local(n.elt):
                    return True
                if isinstance(n, ast.Name) and n.id in collected:
                    return True
        return False

    def _report_per_call(self, ctx: ModuleContext, where: ast.AST, owner: str, kind: str = "tf.function") -> None:
        ctx.report(self, where,
                   f"{_shown(kind)} created inside `{owner}()` and called once per call: every call of `{owner}()` "
                   "builds a new function with an empty trace cache and traces/compiles it again; create the "
                   f"{_shown(kind)} once (module level, __init__, or a cache)")


def _in_branch_without(index: ModuleIndex, use: ast.AST, created: ast.AST, func: ast.AST) -> bool:
    """``use`` sits in the body or ``else`` of an ``if`` (or a conditional expression) inside ``func``
    that does not hold ``created`` too: it runs only when that condition holds."""
    child, parent = use, index.parent(use)
    while parent is not None and parent is not func:
        if isinstance(parent, (ast.If, ast.IfExp)) and child is not parent.test \
                and not any(n is created for n in ast.walk(parent)):
            return True
        child, parent = parent, index.parent(parent)
    return False


def _runs_per_step(ctx: ModuleContext, index: ModuleIndex, func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """The enclosing function that builds a compiled function runs again and again, so the build is paid
    per step: the project shows it reached per step (:func:`~xlacheck.analysis.per_step.reached_per_step`:
    a loop of this file, directly or through callers, a loop over data, a per-item method, another
    module's loop). With ``--preview`` also where no caller is in view (a helper another file calls, or
    that nothing calls), unless this file calls it only outside loops: on real code those were one-off
    set-up steps and barriers (brax's ``synchronize_hosts()``, algorithmic-efficiency's uncalled
    ``sync_batch_stats``) as often as per-step helpers (docs/retrace33.md)."""
    if ctx.preview:
        return not called_only_outside_loops(index, func)
    return reached_per_step(index, func)


def _transformed_and_called(index: ModuleIndex, use: ast.AST | None, name: ast.Name) -> bool:
    """``use`` is ``jax.grad(name)``/``jax.value_and_grad(name, ...)``/``jax.vmap(name)``/... (a
    transformation of ``_TRANSFORM_ROWS``) whose result is called at once: ``jax.value_and_grad(
    loss_fn)(params, batch)`` calls ``loss_fn`` and keeps nothing."""
    if not (isinstance(use, ast.Call) and use.args and use.args[0] is name
            and (index.aliases.resolve(use.func) or "") in _TRANSFORM_ROWS):
        return False
    outer = index.parent(use)
    return isinstance(outer, ast.Call) and outer.func is use


def _captures_call_state(index: ModuleIndex, func: ast.AST, created: ast.AST) -> bool:
    """The function (or object) created per call of ``func`` is built from ``func``'s own parameters
    or locals: a closure over them, ``tf.function(model)``, ``partial(model.init)``,
    ``Augmenter(probability)``; a method's ``self`` is not such state (the same object on every
    call: scCODA's sampler closing over ``self.step_size``). A kept one could not be reused as it
    is (the state differs per call), and on real code such creations were one-off drivers (fit a model once, init its
    parameters) about as often as per-step helpers; ones that capture nothing of the call
    (``jax.pmap(lambda x: all_gather(x, 'i'))(x)``) were per-step helpers. Those are reported by
    default, these only with ``--preview`` (docs/known-results.md)."""
    return bool(_call_state_reads(index, func, created))


def _call_state_reads(index: ModuleIndex, func: ast.AST, created: ast.AST) -> list[ast.expr]:
    """The reads, inside what ``created`` wraps, of ``func``'s own parameters and locals (``self``
    and local defs aside), and of the attributes of ``self`` that ``func`` itself assigns (``self._model
    = Conformer(config)`` then ``jax.jit(partial(self._model.init, train=False))``: an object this call
    builds, as new per call as a local): what :func:`_captures_call_state` asks about."""
    parts: list[ast.AST] = [created]
    if isinstance(created, ast.Call):
        parts = list(created.args[:1]) if _is_compiler_call(index, created) \
            else [*created.args, *(kw.value for kw in created.keywords)]
    local_defs = {n.name: n for n in index.scope_nodes(func)
                  if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and index.function_of(n) is func}
    expanded: list[ast.AST] = []
    for part in parts:  # `tf.function(step)` of a def of func: look into the def
        expanded.append(local_defs.get(part.id, part) if isinstance(part, ast.Name) else part)
    free = set().union(*(_free_names(part) for part in expanded)) if expanded else set()
    if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        return []
    params = [*func.args.posonlyargs, *func.args.args]
    bound = {a.arg for a in (*params, *func.args.kwonlyargs)}
    bound |= {a.arg for a in (func.args.vararg, func.args.kwarg) if a is not None}
    this = None
    if params and isinstance(index.parent(func), ast.ClassDef):
        this = params[0].arg
        bound.discard(this)  # `self`: the same object on every call of its methods, not per-call state
    built_attrs: set[str] = set()  # `self.<attr>` assigned by this call
    for sub in index.scope_nodes(func):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store) and index.function_of(sub) is func:
            bound.add(sub.id)
        elif isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Store) and isinstance(sub.value, ast.Name) \
                and sub.value.id == this and index.function_of(sub) is func:
            built_attrs.add(sub.attr)
    bound -= set(local_defs)  # a local def itself is looked into, not counted as state
    state = free & bound
    reads: list[ast.expr] = []
    for part in expanded:
        outer_self = this is not None and this in _free_names(part)  # not a lambda's own `self`
        for sub in ast.walk(part):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load) and sub.id in state:
                reads.append(sub)
            elif outer_self and isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Load) \
                    and sub.attr in built_attrs and isinstance(sub.value, ast.Name) and sub.value.id == this:
                reads.append(sub)
    return reads


def _bakes_call_numbers(index: ModuleIndex, func: ast.AST, created: ast.AST) -> bool:
    """The per-call state the created function closes over is only operands of arithmetic or
    comparisons (``jax.jit(lambda a, b: w * jnp.mean((a - b) ** 2))`` in ``weighted_mse(a, b, w)``): numbers
    the compiled program bakes in as constants, so it is a numeric kernel specialised on this call's
    values, which its callers run per step, not a driver over a model or a distribution (the
    one-off fit/init drivers of real code call or read attributes of what they capture:
    ``model.init``, ``sssm.get_transition_matrix_for_timestep``, ``sample_chain(num_results=...)``)."""
    reads = _call_state_reads(index, func, created)
    return bool(reads) and all(isinstance(index.parent(r), (ast.BinOp, ast.UnaryOp, ast.Compare)) for r in reads)


# jax.jit's own parameters: a jit whose configuration comes from the iteration cannot be built once
_JIT_CONFIG = frozenset({"in_shardings", "out_shardings", "static_argnums", "static_argnames", "donate_argnums",
                         "donate_argnames", "device", "backend"})


def _configured_per_iteration(index: ModuleIndex, node: ast.AST) -> bool:
    """``jax.jit(f, out_shardings=[specs[i] for i in chunk])`` in a loop over chunks: the jit's own
    configuration changes with the iteration, so no function built before the loop could serve
    every iteration (each compiles for its own shardings either way; maxdiffusion's weight loading)."""
    if not (isinstance(node, ast.Call) and index.aliases.resolve(node.func) in JAX_JIT_NAMES):
        return False
    varying = jax_loop_varying_names(index, node)
    return any(kw.arg in _JIT_CONFIG and any(isinstance(n, ast.Name) and n.id in varying for n in ast.walk(kw.value))
               for kw in node.keywords)


def _cached(index: ModuleIndex, node: ast.AST) -> bool:
    """The compiled function made in a loop is kept in a mapping by the same loop body
    (``fn = jax.jit(...)`` then ``cache[key] = fn``, usually under ``if fn is None:`` after
    ``fn = cache.get(key)``): built once per key, and looked up on the next iteration with that key
    (maxdiffusion's one jit per resolution), so no iteration rebuilds what an earlier one built.
    Or it is built lazily into the name the loop reuses: ``if step is None: step = jax.jit(...)``
    inside the loop (algorithmic-efficiency's WMT decoding) runs on the first iteration only."""
    parent = index.parent(node)
    if not (isinstance(parent, ast.Assign) and len(parent.targets) == 1
            and isinstance(parent.targets[0], (ast.Name, ast.Attribute))):
        return False
    target = ast.unparse(parent.targets[0])
    loop = index.loops_around(node)[0]
    if _built_when_unset(index, parent, target, loop):
        return True
    if not isinstance(parent.targets[0], ast.Name):
        return False
    local = parent.targets[0].id
    return any(isinstance(n, ast.Assign) and isinstance(n.value, ast.Name) and n.value.id == local
               and any(isinstance(t, ast.Subscript) for t in n.targets)
               for n in ast.walk(loop))


def _built_when_unset(index: ModuleIndex, assign: ast.Assign, target: str, loop: ast.AST) -> bool:
    """``assign`` (to ``target``, unparsed) sits, inside ``loop``, in the body of ``if target is
    None:`` or ``if not target:``: it runs until the first iteration sets it (and nothing else in the
    loop assigns ``target``, which could unset it again)."""
    if any(isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and n is not assign
           and any(ast.unparse(t) == target for t in (n.targets if isinstance(n, ast.Assign) else [n.target]))
           for n in ast.walk(loop)):
        return False
    child: ast.AST = assign
    parent = index.parent(assign)
    while parent is not None and parent is not loop:
        if isinstance(parent, ast.If) and any(child is st for st in parent.body):
            # a conjunct of the test is enough: `if review and fn is None:` still runs until fn is set
            tests = parent.test.values if isinstance(parent.test, ast.BoolOp) and isinstance(parent.test.op, ast.And) \
                else [parent.test]
            for test in tests:
                if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Is) \
                        and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None \
                        and ast.unparse(test.left) == target:
                    return True
                if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
                    if ast.unparse(test.operand) == target or _set_once(test.operand, parent, loop):
                        return True
        child, parent = parent, index.parent(parent)
    return False


def _set_once(flag: ast.expr, guard: ast.If, loop: ast.AST) -> bool:
    """``guard`` (``if not flag:``, inside ``loop``) sets ``flag`` to a true constant among its own
    statements, and nothing else in the loop assigns it: the guarded body runs on one iteration at most
    (l2p's ``if in_review and not built: step = jax.pmap(...); built = True``)."""
    if not isinstance(flag, ast.Name):
        return False
    sets = [n for n in ast.walk(loop) if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.NamedExpr))
            and any(isinstance(m, ast.Name) and m.id == flag.id
                    for t in (n.targets if isinstance(n, ast.Assign) else [n.target]) for m in ast.walk(t))]
    return len(sets) == 1 and isinstance(sets[0], ast.Assign) and any(sets[0] is st for st in guard.body) \
        and isinstance(sets[0].value, ast.Constant) and bool(sets[0].value.value)


def _is_compiler_call(index: ModuleIndex, call: ast.Call) -> bool:
    return index.aliases.resolve(call.func) in _COMPILERS


def _free_names(node: ast.AST) -> set[str]:
    """Names ``node`` reads that it does not bind itself (parameters of the lambdas and defs in it,
    names they assign)."""
    loads: set[str] = set()
    stores: set[str] = set()
    # a decorated def: its body and parameters, not the decorator (the compiler and its options)
    roots = [*node.body, node.args] if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else [node]
    for root in roots:
        for sub in ast.walk(root):
            if isinstance(sub, ast.Name):
                (loads if isinstance(sub.ctx, ast.Load) else stores).add(sub.id)
            elif isinstance(sub, ast.arg):
                stores.add(sub.arg)
    return loads - stores


def _kept_per_item(index: ModuleIndex, node: ast.AST) -> bool:
    """The function made in the loop is not called there but collected: it is (an argument or element
    of) what the statement appends to a collection or stores under a key, directly or through a name
    that the loop collects the same way and never calls (``pure = Trainer(loss=jax.jit(partial(t.loss_fn,
    enn))); out.append(pure)``: google-deepmind/enn's one jit per trainer). Each kept one is traced on
    its own first call, once, like the per-key cache of :func:`_cached`."""
    loops = index.loops_around(node)
    if not loops or not isinstance(node, ast.Call):
        return False
    loop = loops[0]
    child: ast.AST = node
    parent = index.parent(node)
    while isinstance(parent, (ast.Call, ast.keyword, ast.Tuple, ast.List, ast.Dict)):
        if isinstance(parent, ast.Call) and parent.func is child:
            return False  # called at once
        child, parent = parent, index.parent(parent)
    if parent is loop and (isinstance(parent, (ast.ListComp, ast.SetComp)) and parent.elt is child
                           or isinstance(parent, ast.DictComp) and parent.value is child):
        # the comprehension's element: one function per item, collected, not called there. Kept when the
        # collection outlives the call: stored on an object or under a key, or returned (JaxMARL's
        # `self.batch_samplers = {agent: jax.jit(...) for agent in self.agents}` in __init__)
        holder = index.parent(parent)
        return isinstance(holder, ast.Return) or isinstance(holder, ast.Assign) and holder.value is parent \
            and all(isinstance(t, (ast.Attribute, ast.Subscript)) for t in holder.targets)
    if not isinstance(parent, ast.stmt):
        return False

    def collects(stmt: ast.AST, value: ast.AST) -> bool:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) \
                and isinstance(stmt.value.func, ast.Attribute) and stmt.value.func.attr in ("append", "add", "insert") \
                and any(a is value for a in stmt.value.args):
            return True
        return isinstance(stmt, ast.Assign) and stmt.value is value \
            and all(isinstance(t, ast.Subscript) for t in stmt.targets)

    if collects(parent, child):
        return True
    if not (isinstance(parent, ast.Assign) and parent.value is child and len(parent.targets) == 1
            and isinstance(parent.targets[0], ast.Name)):
        return False
    name = parent.targets[0].id
    kept = False
    for n in ast.walk(loop):
        if isinstance(n, ast.Call):
            root = n.func
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name) and root.id == name and not (
                    isinstance(n.func, ast.Attribute) and n.func.attr in ("append", "add", "insert")):
                return False  # called (or a member of it is) in the loop
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load):
            use = index.parent(n)
            if use is not None and collects(index.parent(use) or use, n) or isinstance(use, ast.stmt) \
                    and collects(use, n):
                kept = True
    return kept


def _wraps_loop_target(index: ModuleIndex, node: ast.AST) -> bool:
    """``tf.function(fn)`` / ``jax.jit(fn)`` where ``fn`` is the target of a loop around it (``for
    device, fn in specializations.items()``): each iteration compiles a different function, once
    each, and one built before the loop could not serve them (sonnet's per-device specializations)."""
    wrapped = node.args[0] if isinstance(node, ast.Call) and node.args else None
    if not isinstance(wrapped, ast.Name):
        return False
    for loop in index.loops_around(node):
        targets = [loop.target] if isinstance(loop, (ast.For, ast.AsyncFor)) else [
            g.target for g in getattr(loop, "generators", ())]
        if any(isinstance(n, ast.Name) and n.id == wrapped.id for t in targets for n in ast.walk(t)):
            return True
    return False


_ITEM_WRAPPERS = frozenset({"enumerate", "zip", "sorted", "reversed", "list", "tuple"})
_ITEM_VIEWS = frozenset({"items", "values", "keys"})


def _configuration_items(index: ModuleIndex, iterable: ast.expr) -> bool:
    """``iterable`` is a fixed collection of configurations, not data nor a count: a literal
    display, a module-level name bound to one (``STATE_POINTS = ((1.0, 0.4), (1.0, 0.8))``), or a
    structure of ``self`` (``self.hosts``), also through ``enumerate``/``zip``/``.items()``. A
    ``range`` or a parameter of the function (the data its caller hands it) is not."""
    parts = [iterable]
    while len(parts) == 1 and isinstance(parts[0], ast.Call):
        call = parts[0]
        if isinstance(call.func, ast.Name) and call.func.id in _ITEM_WRAPPERS and call.args and not call.keywords:
            parts = list(call.args)
        elif isinstance(call.func, ast.Attribute) and call.func.attr in _ITEM_VIEWS and not call.args:
            parts = [call.func.value]
        else:
            return False
    module_literals = {t.id for st in index.tree.body if isinstance(st, ast.Assign)
                       and isinstance(st.value, (ast.Tuple, ast.List, ast.Set, ast.Dict))
                       for t in st.targets if isinstance(t, ast.Name)}
    for part in parts:
        if isinstance(part, (ast.Tuple, ast.List, ast.Set, ast.Dict)):
            continue
        if isinstance(part, ast.Name) and part.id in module_literals and index.function_of(part) is None:
            continue
        root = part
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(part, ast.Attribute) and isinstance(root, ast.Name) and root.id == "self":
            continue  # a structure of self: `self.hosts`, `self._params.transport_scalars_names`
        return False
    return True


def _one_program_per_item(index: ModuleIndex, node: ast.AST) -> bool:
    """A function built in a loop over a fixed collection of configurations whose program reads the
    item (``for host in self.hosts: @tf.function def pending(): ... host ...``; ``for t, p in
    STATE_POINTS: jax.jit(lambda s: scan(sample, s))`` where ``sample`` steps a simulator built for
    ``t, p``): each iteration compiles a different program, once, and one built before the loop
    could serve none of them but one (seed_rl's per-host gRPC servers, jax-md's state points). A loop
    over data or a count is not such a loop."""
    loops = python_loops_around(index, node)
    if not loops:
        return False
    fors = [lp for lp in loops if isinstance(lp, (ast.For, ast.AsyncFor))]
    if len(fors) != len(loops) or not all(_configuration_items(index, lp.iter) for lp in fors):
        return False  # every loop around it must run over configurations
    loop = fors[-1]  # the outermost loop
    item = {n.id for lp in fors for n in ast.walk(lp.target) if isinstance(n, ast.Name)}
    targets = frozenset(item)  # the configurations themselves: Python values, unlike what the body derives
    body = [n for st in loop.body for n in ast.walk(st)]
    changed = True
    while changed:  # names the loop body binds from the item: assignments (also unpacked) and defs
        changed = False
        for n in body:
            if n is node:
                continue
            if isinstance(n, ast.Assign):
                bound = {t.id for tgt in n.targets for t in ast.walk(tgt) if isinstance(t, ast.Name)}
                reads = any(isinstance(v, ast.Name) and v.id in item for v in ast.walk(n.value))
            elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                bound, reads = {n.name}, bool(_free_names(n) & item)
            else:
                continue
            if reads and bound - item:
                item |= bound
                changed = True
    made = node.args[0] if isinstance(node, ast.Call) and node.args else node
    if isinstance(made, ast.Name) and made.id in item or not isinstance(made, ast.Name) and _free_names(made) & item:
        return True
    # or the loop calls it with the item itself as an argument (`advance(rhs, sc_name)` for each scalar name): a
    # tf.function traces once per new Python value, so each item has its own program wherever it is built (a
    # value the body derives from the item may be a tensor, `tf.convert_to_tensor(data[name])`: one program)
    parent = index.parent(node)
    local = node.name if isinstance(node, ast.FunctionDef) else parent.targets[0].id if isinstance(
        parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name) else None
    compilers = [node.func] if isinstance(node, ast.Call) else [
        d.func if isinstance(d, ast.Call) else d for d in getattr(node, "decorator_list", ())]
    return local is not None and any(index.aliases.resolve(c) in _TF_FUNCTION for c in compilers) and any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == local
        and any(isinstance(a, ast.Name) and a.id in targets for a in [*n.args, *(k.value for k in n.keywords)])
        for n in body)
