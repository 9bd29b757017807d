"""Source: https://github.com/patrick-kidger/equinox/issues/817 (the fix: pass a strongly typed learning rate from the first step on; originally: a filter-jitted step under `eqx.debug.assert_max_traces` was traced twice: once with a weakly typed Python scalar and once with a strongly typed array in the same argument, a difference that `jax.eval_shape` does not show; see jax-ml/jax#23302, "If a jitted function is called twice, one with a weak_type and once with a non-weak_type, this triggers recompilation"). Here the epoch function's default learning rate is `jnp.float32(0.01)` and later epochs get the schedule's float32 value."""
import jax
import jax.numpy as jnp


def loss_fn(params, x, y):
    pred = jnp.tanh(x @ params["w"] + params["b"])
    return jnp.mean((pred - y) ** 2)


@jax.jit
def sgd_step(params, x, y, lr):
    loss, g = jax.value_and_grad(loss_fn)(params, x, y)
    return jax.tree_util.tree_map(lambda p, gi: p - lr * gi, params, g), loss


def warmup_schedule(step, base_lr=0.1, warmup=10):
    return base_lr * jnp.minimum(1.0, (step + 1) / warmup).astype(jnp.float32)


def train_epoch(params, x, y, lr=jnp.float32(0.01)):
    return sgd_step(params, x, y, lr)


# --- oracle ---
WRAP = False


def _params():
    return {"w": jnp.full((3, 2), 0.1), "b": jnp.zeros(2)}


def ENTRY():
    x = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
    return train_epoch, (_params(), x, jnp.ones((4, 2)))


def ALT_ARGS():
    x = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
    return [(_params(), x, jnp.ones((4, 2)), warmup_schedule(jnp.int32(0)))]
