"""Source: https://github.com/jax-ml/jax/pull/24511 (a branch on a traced value under `jax.checkpoint` must be traced too; `jnp.where` computes both activations and selects one). Here the checkpointed residual block selects its activation with `jnp.where` on the traced pre-activation mean. (The failing form, a Python `if` under `jax.checkpoint`, fails eagerly too, since `jax.checkpoint` traces its function even without `jax.jit`: the oracle records it as a broken case, so it is not in the corpus.)"""
import jax
import jax.numpy as jnp


@jax.checkpoint
def residual_block(x, w1, w2):
    h = x @ w1
    h = jnp.where(jnp.mean(h) > 0, jax.nn.gelu(h), jnp.tanh(h))
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
