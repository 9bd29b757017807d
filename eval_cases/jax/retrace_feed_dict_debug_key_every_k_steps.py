"""Source: https://github.com/jax-ml/jax/issues/4274 ("How to detect recompilation reason?": deeply structured pytree arguments are part of the cache key, so a dict that only sometimes carries an entry compiles the step once per structure)."""
import jax
import jax.numpy as jnp


@jax.jit
def train_step(w, feed):
    loss = jnp.mean((feed["x"] @ w - feed["y"]) ** 2)
    extra = jnp.sum(feed["probe"]) * 0.0 if "probe" in feed else 0.0
    return w - 0.01 * jax.grad(lambda v: jnp.mean((feed["x"] @ v - feed["y"]) ** 2))(w), loss + extra


def train(w, xs, ys):
    for step, (x, y) in enumerate(zip(xs, ys)):
        feed = {"x": x, "y": y}
        if step % 50 == 0:
            feed["probe"] = x[:1]
        w, loss = train_step(w, feed)  # XLA: retrace
    return w


# --- oracle ---
def ENTRY():
    return train_step, (jnp.ones(3), {"x": jnp.ones((4, 3)), "y": jnp.ones(4), "probe": jnp.ones((1, 3))})


def ALT_ARGS():
    return [(jnp.ones(3), {"x": jnp.ones((4, 3)), "y": jnp.ones(4)})]
