"""Source: https://github.com/jax-ml/jax/pull/24511 ("improve concreteness error message in remat": a function decorated with `jax.remat` that branches with a Python `if x > 0` raises ConcretizationTypeError, since `jax.checkpoint` traces its function like `jit` does; the fix is `static_argnums` for a Python flag, or a traced branch). Here a gradient-checkpointed residual block gates its update with a Python `if` on the traced pre-activation mean, inside a jitted training loss."""
import jax
import jax.numpy as jnp


@jax.checkpoint
def residual_block(x, w1, w2):
    h = x @ w1
    if jnp.mean(h) > 0:  # XLA: cond
        h = jax.nn.gelu(h)
    else:
        h = jnp.tanh(h)
    return x + h @ w2


@jax.jit
def loss_and_grad(params, x, y):
    def loss_fn(p):
        out = residual_block(x, p["w1"], p["w2"])
        return jnp.mean((out - y) ** 2)

    return jax.value_and_grad(loss_fn)(params)


# --- oracle ---
def ENTRY():
    params = {"w1": jnp.eye(4) * 0.5, "w2": jnp.ones((4, 4)) * 0.1}
    x = jnp.sin(jnp.arange(12.0).reshape(3, 4))
    return loss_and_grad, (params, x, jnp.zeros((3, 4)))
