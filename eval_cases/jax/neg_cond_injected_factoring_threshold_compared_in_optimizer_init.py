"""Source: https://github.com/google-deepmind/optax/issues/412 ("Problems when jitting Adafactor with inject_hyperparams": `inject_hyperparams` turns every hyperparameter into an array in the optimizer state unless it is listed in `static_args`, so Adafactor's `min_dim_size_to_factor` reaches the factoring decision as a traced value and the jitted `init` raises a tracer error; the workaround is `static_args=("min_dim_size_to_factor",)`); this is the documented workaround, the threshold is listed in `static_args`. Here a small Adafactor-style optimizer with injected hyperparameters is initialised inside a jitted `create_train_state`."""
from typing import NamedTuple

import jax
import jax.numpy as jnp


class FactoredState(NamedTuple):
    v_row: jnp.ndarray
    v_col: jnp.ndarray
    v: jnp.ndarray


def adafactor_init(params, min_dim_size_to_factor):
    def init_leaf(p):
        factored = p.ndim >= 2 and min(p.shape[-2:]) >= min_dim_size_to_factor
        if factored:
            return FactoredState(jnp.zeros(p.shape[:-1]), jnp.zeros(p.shape[:-2] + p.shape[-1:]), jnp.zeros((1,)))
        return FactoredState(jnp.zeros((1,)), jnp.zeros((1,)), jnp.zeros(p.shape))

    return jax.tree_util.tree_map(init_leaf, params)


def inject_hyperparams(init_fn, static_args=()):
    def make(**hparams):
        def init(params):
            numeric = {k: (v if k in static_args else jnp.asarray(v)) for k, v in hparams.items()}
            inner = init_fn(params, numeric["min_dim_size_to_factor"])
            return {"hyperparams": numeric, "inner_state": inner}
        return init
    return make


optimizer_init = inject_hyperparams(adafactor_init, static_args=("min_dim_size_to_factor",))(
    learning_rate=1e-2, min_dim_size_to_factor=32)


def init_params(key):
    k1, k2 = jax.random.split(key)
    return {
        "embed": jax.random.normal(k1, (64, 48)) * 0.02,
        "head": {"w": jax.random.normal(k2, (48, 10)) * 0.02, "b": jnp.zeros((10,))},
    }


@jax.jit
def create_train_state(key):
    params = init_params(key)
    return params, optimizer_init(params)


# --- oracle ---
def ENTRY():
    return create_train_state, (jax.random.PRNGKey(0),)
