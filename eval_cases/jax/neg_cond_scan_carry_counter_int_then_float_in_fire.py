"""Source: https://github.com/jax-md/jax-md/issues/99 ("FireDescentState changing type and causing error": a FIRE minimization driven by `lax.scan` fails with `TypeError: scan carry output and input must have identical types`, because the state's `n_pos` counter starts as the Python int `0` and the update returns it as a float; the fix casts the initial value). Here a FIRE energy minimizer scans its update over a fixed number of steps, its counter starting as the Python int `0`. It does not reproduce on jax 0.10.2: `lax.scan` now promotes the weakly typed initial carry to the dtype of the output, and the scan compiles."""
from typing import NamedTuple

import jax
import jax.numpy as jnp


class FireState(NamedTuple):
    position: jnp.ndarray
    velocity: jnp.ndarray
    dt: jnp.ndarray
    alpha: jnp.ndarray
    n_pos: jnp.ndarray


def energy(r):
    d = r[:, None, :] - r[None, :, :]
    dist2 = jnp.sum(d ** 2, axis=-1) + jnp.eye(r.shape[0])
    return jnp.sum(jnp.triu(1.0 / dist2 ** 6 - 2.0 / dist2 ** 3, k=1))


force_fn = jax.grad(lambda r: -energy(r))


def fire_init(r, dt_start=0.01, alpha_start=0.1):
    return FireState(r, jnp.zeros_like(r), jnp.float32(dt_start), jnp.float32(alpha_start), 0)


def fire_step(state, _):
    f = force_fn(state.position)
    power = jnp.sum(f * state.velocity)
    v_norm = jnp.linalg.norm(state.velocity)
    f_norm = jnp.linalg.norm(f) + 1e-12
    v = (1.0 - state.alpha) * state.velocity + state.alpha * f * v_norm / f_norm
    n_pos = jnp.where(power >= 0.0, state.n_pos + 1, 0.0)
    dt = jnp.where((power >= 0.0) & (n_pos > 5), jnp.minimum(state.dt * 1.1, 0.1), state.dt)
    alpha = jnp.where(power >= 0.0, state.alpha, 0.1)
    v = jnp.where(power >= 0.0, v, jnp.zeros_like(v))
    v = v + dt * f
    r = state.position + dt * v
    return FireState(r, v, dt, alpha, n_pos), energy(r)


def minimize(r0, n_steps=20):
    final, energies = jax.lax.scan(fire_step, fire_init(r0), None, length=n_steps)
    return final.position, energies


# --- oracle ---
def ENTRY():
    r0 = jnp.array([[0.0, 0.0], [1.2, 0.1], [0.3, 1.1], [1.4, 1.3]])
    return minimize, (r0,)
