"""Source: https://github.com/google/flax/issues/1492 (the fix from the thread: drop the string `id` column on the host before the batch reaches the jitted `eval_step`)."""
import jax
import jax.numpy as jnp
import numpy as np


def init_params():
    return {"w": jnp.linspace(-0.5, 0.5, 12).reshape(4, 3), "b": jnp.zeros(3)}


@jax.jit
def eval_step(params, batch):
    logits = batch["image"] @ params["w"] + params["b"]
    labels = jax.nn.one_hot(batch["label"], 3)
    loss = -jnp.mean(jnp.sum(labels * jax.nn.log_softmax(logits), axis=-1))
    accuracy = jnp.mean(jnp.argmax(logits, -1) == batch["label"])
    return {"loss": loss, "accuracy": accuracy}


def evaluate(params, test_ds):
    test_ds = {k: v for k, v in test_ds.items() if k != "id"}
    return eval_step(params, test_ds)


# --- oracle ---
WRAP = False


def ENTRY():
    test_ds = {
        "image": np.arange(8, dtype=np.float32).reshape(2, 4) / 8.0,
        "label": np.array([0, 2]),
        "id": np.array([b"test_09933", b"test_05669"]),
    }
    return evaluate, (init_params(), test_ds)
