"""Source: https://github.com/marin-community/haliax/issues/57 (a Python `if jnp.equal(layer_idx.array, 4):` inside a block scanned over layers raised a ConcretizationTypeError). Here the perturbation of one layer is selected with `jnp.where` on the scanned layer index, so the scanned decoder compiles."""
import jax
import jax.numpy as jnp


def layer_norm(x, eps=1e-5):
    mu = jnp.mean(x, axis=-1, keepdims=True)
    return (x - mu) / jnp.sqrt(jnp.var(x, axis=-1, keepdims=True) + eps)


def block(x, layer_params, layer_idx):
    h = layer_norm(x)
    attn = jax.nn.softmax(h @ layer_params["wq"] @ (h @ layer_params["wk"]).T / 2.0, axis=-1) @ h
    x = x + attn
    x = x + jax.nn.gelu(layer_norm(x) @ layer_params["w1"]) @ layer_params["w2"]
    return jnp.where(jnp.equal(layer_idx, 4), x + 0.01 * jnp.sin(x * 1e2), x)


def decoder(stacked_params, x):
    def body(carry, inputs):
        layer_params, idx = inputs
        return block(carry, layer_params, idx), None

    n_layers = stacked_params["wq"].shape[0]
    out, _ = jax.lax.scan(body, x, (stacked_params, jnp.arange(n_layers)))
    return out


# --- oracle ---
def _params(n_layers=6, d=4):
    base = jnp.linspace(-0.2, 0.2, d * d).reshape(d, d)
    return {"wq": jnp.stack([base] * n_layers), "wk": jnp.stack([base.T] * n_layers),
            "w1": jnp.stack([jnp.eye(d, 8) * 0.5] * n_layers), "w2": jnp.stack([jnp.eye(8, d) * 0.5] * n_layers)}


def ENTRY():
    return decoder, (_params(), jnp.linspace(-1.0, 1.0, 12).reshape(3, 4))
