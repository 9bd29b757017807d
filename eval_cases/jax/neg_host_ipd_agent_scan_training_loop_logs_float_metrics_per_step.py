"""Source: https://github.com/ucl-dark/pax/pull/26 ("Bring back agent2 logging": a `lax.scan` training loop cannot hand traced metrics to a host logger; the fix returns the metrics from the compiled loop and logs concrete values outside it). Near miss: the scan body returns each episode's loss as its per-step output, and the caller logs the stacked losses after the jitted loop has run."""
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
        return theta - 0.1 * g, loss

    return lax.scan(step, theta, episodes)


def run(theta, episodes):
    theta, losses = train(theta, episodes)
    METRICS_LOG.extend({"agent2/loss": v} for v in losses.tolist())
    return theta


# --- oracle ---
WRAP = False


def ENTRY():
    episodes = (jnp.arange(5 * 6).reshape(5, 6) % 3 == 0).astype(jnp.float32)
    return run, (jnp.zeros(6), episodes)
