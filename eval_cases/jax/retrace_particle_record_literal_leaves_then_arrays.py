"""Source: https://github.com/genjax-community/genjax/issues/1352 ("Update and importance return traces with (presumably) different pytree shapes": a jitted function compiled again for the trace returned by `update`; femtomc: "the traces have identical structure, but ... the _leaves_ have different types (some are arrays, some are literal values, and some are array with weak types) ... this induces the cache miss"). Here a particle filter's importance step returns a record with Python literal leaves, the eager update returns arrays, and a jitted scoring function sees both."""
import jax
import jax.numpy as jnp


def importance(key, obs):
    x = jax.random.normal(key, (8,))
    return {"x": x, "log_weight": 0.0, "n_resampled": 0}  # XLA: retrace


def update(record, key, obs):
    x = record["x"] + 0.1 * jax.random.normal(key, record["x"].shape)
    log_w = record["log_weight"] - 0.5 * jnp.sum((x - obs) ** 2)
    return {"x": x, "log_weight": log_w, "n_resampled": record["n_resampled"] + jnp.int32(1)}


@jax.jit
def score(record, obs):
    return record["log_weight"] - 0.5 * jnp.mean((record["x"] - obs) ** 2) + 0.01 * record["n_resampled"]


def run_filter(key, observations):
    k0, key = jax.random.split(key)
    record = importance(k0, observations[0])
    scores = [score(record, observations[0])]
    for obs in observations[1:]:
        k, key = jax.random.split(key)
        record = update(record, k, obs)
        scores.append(score(record, obs))
    return jnp.stack(scores)


# --- oracle ---
COMPARE = False


def ENTRY():
    return score, (importance(jax.random.PRNGKey(0), jnp.zeros(8)), jnp.zeros(8))


def ALT_ARGS():
    rec = importance(jax.random.PRNGKey(0), jnp.zeros(8))
    return [(update(rec, jax.random.PRNGKey(1), jnp.full(8, 0.1, jnp.float32)), jnp.full(8, 0.1, jnp.float32))]
