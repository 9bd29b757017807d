"""Source: https://github.com/google/flax/issues/1495 ("nn.Embed cannot be hashed -> doesn't work with jax.jit static_argnums": a generic `train_step` takes the network as a static argument so that one jitted function serves several models; it works for modules that hash but fails for the embedding module, which does not; the maintainers' answer is to carry the apply function in the train state as a non-pytree field instead). Here a token-classification train step takes its embedding-lookup module, a dataclass whose generated `__eq__` leaves it unhashable, as a static argument of `jax.jit`."""
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@dataclasses.dataclass
class EmbeddingLookup:
    vocab_size: int
    features: int

    def apply(self, table, ids):
        return jnp.take(table, ids, axis=0)


@partial(jax.jit, static_argnums=(0,))
def train_step(embed, table, head, ids, labels):
    def loss_fn(table, head):
        logits = embed.apply(table, ids) @ head
        log_probs = jax.nn.log_softmax(logits)
        return -jnp.mean(jnp.take_along_axis(log_probs, labels[..., None], axis=-1))

    loss, (g_table, g_head) = jax.value_and_grad(loss_fn, argnums=(0, 1))(table, head)
    return loss, table - 0.1 * g_table, head - 0.1 * g_head


def fit(table, head, ids, labels, steps=3):
    embed = EmbeddingLookup(vocab_size=table.shape[0], features=table.shape[1])
    losses = []
    for _ in range(steps):
        loss, table, head = train_step(embed, table, head, ids, labels)  # XLA: retrace
        losses.append(loss)
    return jnp.stack(losses), table, head


# --- oracle ---
WRAP = False


def ENTRY():
    table = jnp.linspace(-1.0, 1.0, 18).reshape(6, 3)
    head = jnp.array([[0.2, -0.1], [0.0, 0.3], [-0.2, 0.1]])
    ids = jnp.array([[0, 3, 5], [1, 2, 4]])
    labels = jnp.array([[0, 1, 1], [1, 0, 0]])
    return fit, (table, head, ids, labels)
