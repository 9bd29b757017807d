"""Source: https://github.com/jax-ml/jax/issues/4274 (the fix: keep one pytree structure, always passing the entry, and select its use with a traced flag, so every step hits the cache)."""
import jax
import jax.numpy as jnp


@jax.jit
def train_step(w, feed):
    loss = jnp.mean((feed["x"] @ w - feed["y"]) ** 2)
    extra = jnp.where(feed["probe_on"], jnp.sum(feed["probe"]) * 0.0, 0.0)
    return w - 0.01 * jax.grad(lambda v: jnp.mean((feed["x"] @ v - feed["y"]) ** 2))(w), loss + extra


def train(w, xs, ys):
    for step, (x, y) in enumerate(zip(xs, ys)):
        feed = {"x": x, "y": y, "probe": x[:1], "probe_on": jnp.asarray(step % 50 == 0)}
        w, loss = train_step(w, feed)
    return w


# --- oracle ---
def ENTRY():
    feed = {"x": jnp.ones((4, 3)), "y": jnp.ones(4), "probe": jnp.ones((1, 3)), "probe_on": jnp.asarray(True)}
    return train_step, (jnp.ones(3), feed)


def ALT_ARGS():
    feed = {"x": jnp.ones((4, 3)), "y": jnp.ones(4), "probe": jnp.ones((1, 3)), "probe_on": jnp.asarray(False)}
    return [(jnp.ones(3), feed)]
