"""Source: https://github.com/jax-ml/jax/issues/6853 (the answer's option: pass the integer as its own static argument and keep the arrays traced; originally: "Need a way to specify constants": `@jit def foo(x, d): return x[:d['num']] + d['val']` raises `IndexError: Array slice indices must have static start/stop/step`, and marking `d` static fails because it holds an array; the answer: split the static int from the array argument). Here the number of valid frames is a static argument and the dict holds only arrays."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="num_frames")
def forward(frames, variables, num_frames):
    valid = frames[:num_frames]
    pooled = jnp.mean(valid @ variables["kernel"], axis=0)
    return pooled + variables["bias"]


# --- oracle ---
def ENTRY():
    variables = {"kernel": jnp.ones((3, 4)) * 0.1, "bias": jnp.arange(4.0)}
    return forward, (jnp.linspace(0.0, 1.0, 24).reshape(8, 3), variables, 5)
