"""Source: https://github.com/jax-ml/jax/issues/3701 ("Unhashable objects are silently accepted as static arguments to jax.jit": a plain `@dataclasses.dataclass` config passed as a static argument has no `__hash__`; it used to recompile on every call, current JAX raises "Non-hashable static arguments are not supported")."""
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@dataclasses.dataclass
class EvalConfig:
    temperature: float = 1.0
    top_k: int = 2


@partial(jax.jit, static_argnums=1)
def score_logits(logits, config):
    scaled = logits / config.temperature
    top = jax.lax.top_k(scaled, config.top_k)[0]
    return jax.nn.logsumexp(top, axis=-1)


def evaluate(logits):
    config = EvalConfig(temperature=0.7)
    return score_logits(logits, config)  # XLA: retrace


# --- oracle ---
WRAP = False


def ENTRY():
    return evaluate, (jnp.arange(12.0).reshape(3, 4),)
