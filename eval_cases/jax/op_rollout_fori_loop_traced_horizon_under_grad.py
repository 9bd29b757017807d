"""Source: https://github.com/jax-ml/jax/issues/2956 ("Re-enabling scan_f mode for fori_loop and helpfulness of error message": an optimal-control objective rolled dynamics forward with `lax.fori_loop` and was differentiated; because the loop bounds were not concrete Python ints under the transformation, `fori_loop` lowered to `while_loop` and `grad` failed with "Reverse-mode differentiation does not work for lax.while_loop. Try using lax.scan, or lax.fori_loop with constant bounds"). Here a jitted trajectory-optimisation step differentiates a cost whose rollout horizon is a traced argument of the step."""
import jax
import jax.numpy as jnp


def dynamics(state, u, dt=0.1):
    pos, vel = state
    return jnp.stack([pos + dt * vel, vel + dt * (u - 0.1 * vel)])


def rollout_cost(controls, x0, horizon):
    def body(t, carry):
        state, cost = carry
        u = controls[t]
        state = dynamics(state, u)
        return state, cost + state[0] ** 2 + 0.01 * u ** 2

    final, cost = jax.lax.fori_loop(0, horizon, body, (x0, 0.0))  # XLA: op
    return cost + 10.0 * final[1] ** 2


@jax.jit
def plan_step(controls, x0, horizon, lr=0.1):
    return controls - lr * jax.grad(rollout_cost)(controls, x0, horizon)


# --- oracle ---
def ENTRY():
    return plan_step, (jnp.zeros((8,)), jnp.array([1.0, 0.0]), 8)
