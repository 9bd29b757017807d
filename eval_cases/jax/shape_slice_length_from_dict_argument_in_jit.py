"""Source: https://github.com/jax-ml/jax/issues/6853 ("Need a way to specify constants": `@jit def foo(x, d): return x[:d['num']] + d['val']` raises `IndexError: Array slice indices must have static start/stop/step`, and marking `d` static fails because it holds an array; the answer: split the static int from the array argument). Here a Flax-style variables dict carries both the number of valid frames and an offset array into the jitted forward pass."""
import jax
import jax.numpy as jnp


@jax.jit
def forward(frames, variables):
    valid = frames[: variables["num_frames"]]  # XLA: shape
    pooled = jnp.mean(valid @ variables["kernel"], axis=0)
    return pooled + variables["bias"]


# --- oracle ---
def ENTRY():
    variables = {"num_frames": 5, "kernel": jnp.ones((3, 4)) * 0.1, "bias": jnp.arange(4.0)}
    return forward, (jnp.linspace(0.0, 1.0, 24).reshape(8, 3), variables)
