"""Source: https://github.com/google-research/computation-thru-dynamics/issues/15 (the fix: only the loop sizes are static, the optimizer state and weights are traced; originally: "Fixed point finder tutorial notebook: optimizer state non-hashable static arguments": `optimize_fp_core_jit(batch_idx_start, print_every, update_fun, opt_state)` fails with "ValueError: Non-hashable static arguments are not supported ... OptimizerState(packed_state= ... TypeError: unhashable type: 'list'" because the jitted core marks the optimizer state static). Here only the number of batches is static."""
from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp


class OptimizerState(NamedTuple):
    packed_state: list
    step: int


def rnn_update(h, w):
    return jnp.tanh(h @ w)


def fixed_point_loss(h, w):
    return jnp.mean(jnp.sum((h - rnn_update(h, w)) ** 2, axis=-1))


def adam_update(i, g, state, lr=0.05):
    m, v, x = state.packed_state
    m = 0.9 * m + 0.1 * g
    v = 0.999 * v + 0.001 * g ** 2
    x = x - lr * m / (jnp.sqrt(v) + 1e-8)
    return OptimizerState([m, v, x], state.step + 1)


@partial(jax.jit, static_argnums=(1,))
def optimize_fp_core(batch_idx_start, num_batches, w, opt_state):
    def body(i, state):
        h = state.packed_state[2]
        g = jax.grad(fixed_point_loss)(h, w)
        return adam_update(i, g, state)

    return jax.lax.fori_loop(0, num_batches, body, opt_state)


def find_fixed_points(h0, w, num_batches=10):
    opt_state = OptimizerState([jnp.zeros_like(h0), jnp.zeros_like(h0), h0], 0)
    opt_state = optimize_fp_core(0, num_batches, w, opt_state)
    return opt_state.packed_state[2]


# --- oracle ---
WRAP = False


def ENTRY():
    w = jnp.eye(4) * 0.5 + 0.05
    return find_fixed_points, (jnp.full((3, 4), 0.3), w)
