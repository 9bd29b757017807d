"""Source: https://github.com/ucl-dark/pax/pull/26 ("Bring back agent2 logging": after the training loop was jitted with `lax.scan`, the agent's logger received traced arrays that could not be sent to Weights & Biases; the fix exposes the metrics to the runner as outputs and reads concrete values outside the compiled loop). Here a jitted policy-gradient loop over episodes runs in `lax.scan`, and the scan body converts each episode's loss with `float(...)` to append it to a Python metrics log."""
import jax
import jax.numpy as jnp
from jax import lax

METRICS_LOG = []


def episode_loss(theta, rewards):
    probs = jax.nn.sigmoid(theta)
    return -jnp.mean(rewards * jnp.log(probs + 1e-6) + (1.0 - rewards) * jnp.log(1.0 - probs + 1e-6))


@jax.jit
def train(theta, episodes):
    def step(theta, rewards):
        loss, g = jax.value_and_grad(episode_loss)(theta, rewards)
        METRICS_LOG.append({"agent2/loss": float(loss)})  # XLA: host
        return theta - 0.1 * g, None

    theta, _ = lax.scan(step, theta, episodes)
    return theta


# --- oracle ---
def ENTRY():
    episodes = (jnp.arange(5 * 6).reshape(5, 6) % 3 == 0).astype(jnp.float32)
    return train, (jnp.zeros(6), episodes)
