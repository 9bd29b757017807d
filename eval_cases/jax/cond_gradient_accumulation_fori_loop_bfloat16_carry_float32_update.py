"""Source: https://github.com/jax-ml/jax/issues/833 ("improve while_loop/fori_loop dtype error message": when a `lax.while_loop` / `lax.fori_loop` carry goes in as float32 and comes out as float64, the loop fails; the carry's dtype must be the same on input and output, and the error now says "carry input and carry output must have equal types"). Here a jitted gradient-accumulation step keeps its accumulator in the parameters' bfloat16 dtype, but the loop body adds float32 micro-batch gradients, so the carry comes out float32."""
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

    acc0 = jnp.zeros_like(w)
    acc = jax.lax.fori_loop(0, xs.shape[0], body, acc0)  # XLA: cond
    return acc / xs.shape[0]


# --- oracle ---
def ENTRY():
    w = jnp.array([0.5, -0.25, 0.125], dtype=jnp.bfloat16)
    xs = jnp.linspace(-1.0, 1.0, 4 * 8 * 3).reshape(4, 8, 3)
    ys = jnp.sin(jnp.arange(32, dtype=jnp.float32)).reshape(4, 8)
    return accumulate_grads, (w, xs, ys)
