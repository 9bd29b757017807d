"""Source: https://github.com/RobertTLange/gymnax/issues/83 ("Error running the Asterix environment": the MinAtar Asterix `step_entities` returned `bool(done > 0)`, which raises TracerBoolConversionError when the environment step is traced by `jax.jit`). Here a jitted MinAtar-style entity update reports whether the player collided with an enemy as `bool(...)` of a traced count."""
import jax
import jax.numpy as jnp


def step_entities(player_xy, enemy_xy, enemy_dx):
    enemy_xy = enemy_xy.at[:, 0].set(jnp.clip(enemy_xy[:, 0] + enemy_dx, 0, 9))
    hits = jnp.sum(jnp.all(enemy_xy == player_xy[None, :], axis=-1))
    return enemy_xy, bool(hits > 0)  # XLA: cond


@jax.jit
def env_step(player_xy, enemy_xy, enemy_dx, action):
    player_xy = jnp.clip(player_xy + action, 0, 9)
    enemy_xy, done = step_entities(player_xy, enemy_xy, enemy_dx)
    reward = jnp.where(done, -1.0, 0.1)
    return player_xy, enemy_xy, reward, done


# --- oracle ---
def ENTRY():
    return env_step, (jnp.array([4, 4]), jnp.array([[2, 4], [7, 1], [5, 4]]), jnp.array([1, -1, -1]),
                      jnp.array([1, 0]))
