"""Source: https://github.com/google-deepmind/optax/issues/1171 ("backtracking linesearch huge slow down -- recompiling functions every run of `update_fn`?": `scale_by_backtracking_linesearch`'s `update_fn` defined `cond_fn`/`body_fn` locally, closing over `value_fn`, and ran them in `jax.lax.while_loop`; called from an un-jitted training loop, every update traced and compiled the loop, and the expensive `value_fn` with it, again). Here an un-jitted training loop calls a line-search update whose while-loop body closes over the loss and the current parameters."""
import jax
import jax.numpy as jnp


def value_fn(params):
    return jnp.sum((params["w"] - 3.0) ** 2) + jnp.sum(jnp.cos(params["b"]))


def linesearch_update(grads, params, value, max_steps=15, decrease=0.5, slope_rtol=1e-4):
    slope = -sum(jnp.vdot(g, g) for g in jax.tree_util.tree_leaves(grads))

    def body_fn(state):
        step, _, it = state
        step = step * decrease
        trial = jax.tree_util.tree_map(lambda p, g: p - step * g, params, grads)
        return step, value_fn(trial), it + 1

    def cond_fn(state):
        step, new_value, it = state
        return (new_value > value + slope_rtol * step * slope) & (it < max_steps)

    init = (jnp.float32(2.0), jnp.float32(jnp.inf), jnp.int32(0))
    step, _, _ = jax.lax.while_loop(cond_fn, body_fn, init)  # XLA: retrace
    return jax.tree_util.tree_map(lambda g: -step * g, grads)


def train_step(params):
    value, grads = jax.value_and_grad(value_fn)(params)
    updates = linesearch_update(grads, params, value)
    return jax.tree_util.tree_map(lambda p, u: p + u, params, updates)


def _params(scale):
    return {"w": jnp.full((4,), scale), "b": jnp.linspace(0.0, scale, 3)}


# --- oracle ---
WRAP = False


def ENTRY():
    return train_step, (_params(0.5),)


def ALT_ARGS():
    return [(_params(1.0),), (_params(1.5),)]
