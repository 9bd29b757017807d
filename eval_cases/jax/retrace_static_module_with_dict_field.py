"""Source: https://github.com/patrick-kidger/equinox/issues/1089 ("Non-hashable static arguments are not supported": a module with a `nested: dict` field is split into arrays and static part, and `jax.jit(merge, static_argnames="static")(arr, static)` fails because hashing the static part hashes its dict field). Here a tokenizer-aware head object holds a dict of special-token ids and is passed as a static argument."""
import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class OutputHead:
    special_ids: dict
    temperature: float

    def __call__(self, logits):
        mask = jnp.zeros(logits.shape[-1], bool)
        for idx in self.special_ids.values():
            mask = mask.at[idx].set(True)
        return jax.nn.log_softmax(jnp.where(mask, -1e9, logits) / self.temperature)


def apply_head(logits, head):
    return head(logits)


apply_head_jit = jax.jit(apply_head, static_argnames="head")


def score(logits):
    head = OutputHead({"pad": 0, "bos": 1}, 1.0)
    return apply_head_jit(logits, head=head)  # XLA: retrace


# --- oracle ---
WRAP = False


def ENTRY():
    return score, (jnp.linspace(-1.0, 1.0, 12).reshape(2, 6),)
