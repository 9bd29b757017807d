"""Source: https://github.com/patrick-kidger/equinox/issues/1089 (a near miss of the report: the static field holds a tuple of pairs, which hashes; originally: "Non-hashable static arguments are not supported": a module with a `nested: dict` field is split into arrays and static part, and `jax.jit(merge, static_argnames="static")(arr, static)` fails because hashing the static part hashes its dict field). Here the head keeps its special-token ids as a tuple of pairs."""
import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class OutputHead:
    special_ids: tuple
    temperature: float

    def __call__(self, logits):
        mask = jnp.zeros(logits.shape[-1], bool)
        for _, idx in self.special_ids:
            mask = mask.at[idx].set(True)
        return jax.nn.log_softmax(jnp.where(mask, -1e9, logits) / self.temperature)


def apply_head(logits, head):
    return head(logits)


apply_head_jit = jax.jit(apply_head, static_argnames="head")


def score(logits):
    head = OutputHead((("pad", 0), ("bos", 1)), 1.0)
    return apply_head_jit(logits, head=head)


# --- oracle ---
WRAP = False


def ENTRY():
    return score, (jnp.linspace(-1.0, 1.0, 12).reshape(2, 6),)
