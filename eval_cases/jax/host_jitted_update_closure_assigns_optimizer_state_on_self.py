"""Source: https://github.com/google/flax/issues/4695 ("`nnx.Optimizer.update` causes tracer leaking when used in a jitted function": an `Algorithm` class defines a `jax.jit`-decorated `update` closure in `__init__` that computes gradients of `self.model` and calls `self.optimizer.update(grad)`, which stores the new parameters and optimizer state on objects outside the jitted function; saving the model state afterwards raised UnexpectedTracerError; the answer is to pass the model and optimizer in and out of the jitted function). Here a policy-gradient learner keeps its parameters and Adam moments on `self` and updates them from a jitted closure."""
import jax
import jax.numpy as jnp


def policy_loss(params, obs, actions, advantages):
    logits = obs @ params["w"] + params["b"]
    logp = jnp.take_along_axis(jax.nn.log_softmax(logits), actions[:, None], axis=1)[:, 0]
    return -jnp.mean(logp * advantages)


class Algorithm:
    def __init__(self, params, lr=1e-2):
        self.params = params
        self.mu = jax.tree_util.tree_map(jnp.zeros_like, params)

        @jax.jit
        def update(obs, actions, advantages):
            loss, grads = jax.value_and_grad(policy_loss)(self.params, obs, actions, advantages)
            self.mu = jax.tree_util.tree_map(lambda m, g: 0.9 * m + 0.1 * g, self.mu, grads)  # XLA: host
            self.params = jax.tree_util.tree_map(lambda p, m: p - lr * m, self.params, self.mu)
            return loss

        self.update = update

    def state_dict(self):
        return {k: jnp.asarray(v) * 1.0 for k, v in self.params.items()}


def train(obs, actions, advantages, n_updates=3):
    algo = Algorithm({"w": jnp.zeros((obs.shape[1], 3)), "b": jnp.zeros((3,))})
    losses = [algo.update(obs, actions, advantages) for _ in range(n_updates)]
    return jnp.stack(losses), algo.state_dict()


# --- oracle ---
WRAP = False


def ENTRY():
    obs = jnp.linspace(-1.0, 1.0, 8 * 4).reshape(8, 4)
    actions = jnp.array([0, 1, 2, 0, 1, 2, 0, 1])
    advantages = jnp.linspace(-1.0, 1.0, 8)
    return train, (obs, actions, advantages)
