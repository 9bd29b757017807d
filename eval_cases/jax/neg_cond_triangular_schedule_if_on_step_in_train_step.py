"""Source: https://github.com/google/flax/pull/1903 ("Updates LR schedule HOWTO for optax": the triangular schedule's Python if/else on the step could not be traced by `jit`, so the HOWTO switched to a schedule built from array operations). Here the triangular schedule selects its branch with `jnp.where`, so the jitted train step traces for any step value."""
import jax
import jax.numpy as jnp


def create_triangular_schedule(lr_min, lr_max, steps_per_cycle):
    top = (steps_per_cycle + 1) // 2

    def learning_rate_fn(step):
        cycle_step = step % steps_per_cycle
        rising = lr_min + cycle_step / top * (lr_max - lr_min)
        falling = lr_max - ((cycle_step - top) / top) * (lr_max - lr_min)
        return jnp.where(cycle_step < top, rising, falling)

    return learning_rate_fn


learning_rate_fn = create_triangular_schedule(1e-3, 1e-1, 10)


def cross_entropy(params, x, labels):
    logits = x @ params["w"] + params["b"]
    return -jnp.mean(jnp.sum(labels * jax.nn.log_softmax(logits), axis=-1))


def train_step(state, x, labels):
    loss, grads = jax.value_and_grad(cross_entropy)(state["params"], x, labels)
    lr = learning_rate_fn(state["step"])
    params = jax.tree_util.tree_map(lambda p, g: p - lr * g, state["params"], grads)
    return {"params": params, "step": state["step"] + 1}, loss


# --- oracle ---
def ENTRY():
    state = {"params": {"w": jnp.zeros((4, 3)), "b": jnp.zeros(3)}, "step": jnp.asarray(2, jnp.int32)}
    x = jnp.linspace(-1.0, 1.0, 20).reshape(5, 4)
    return train_step, (state, x, jax.nn.one_hot(jnp.array([0, 1, 2, 1, 0]), 3))
