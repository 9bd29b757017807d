"""Source: https://github.com/jax-ml/jax/issues/833 (the loop carry must keep one dtype: start the accumulator in the dtype the body produces). Here the jitted gradient-accumulation step starts its accumulator as float32 (`jnp.zeros(w.shape, jnp.float32)`), the dtype the body adds, and casts back to the parameters' bfloat16 after the loop."""
import jax
import jax.numpy as jnp


def loss_fn(w, x, y):
    pred = x @ w.astype(jnp.float32)
    return jnp.mean((pred - y) ** 2)


@jax.jit
def accumulate_grads(w, xs, ys):
    def body(i, acc):
        g = jax.grad(loss_fn)(w, xs[i], ys[i])
        return acc + g.astype(jnp.float32)

    acc0 = jnp.zeros(w.shape, jnp.float32)
    acc = jax.lax.fori_loop(0, xs.shape[0], body, acc0)
    return (acc / xs.shape[0]).astype(w.dtype)


# --- oracle ---
def ENTRY():
    w = jnp.array([0.5, -0.25, 0.125], dtype=jnp.bfloat16)
    xs = jnp.linspace(-1.0, 1.0, 4 * 8 * 3).reshape(4, 8, 3)
    ys = jnp.sin(jnp.arange(32, dtype=jnp.float32)).reshape(4, 8)
    return accumulate_grads, (w, xs, ys)
