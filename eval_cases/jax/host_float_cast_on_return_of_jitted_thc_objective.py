"""Source: https://github.com/quantumlib/OpenFermion/pull/1396 ("Fix type casting error in thc_jax.py": `compute_objective_batched` is decorated with `@jax.jit` and ended with `return float(objective)` to satisfy the type checker; under tracing the objective is a Tracer and `float()` raises a ConcretizationTypeError; the fix returns the array and uses `typing.cast` for mypy). Here a tensor-hypercontraction style factorisation objective, jitted, casts its result with `float()` before returning."""
import jax
import jax.numpy as jnp


@jax.jit
def compute_objective_batched(chis, zeta, eri_target, penalty=1e-3):
    eri_thc = jnp.einsum("pi,qi,ij,rj,sj->pqrs", chis, chis, zeta, chis, chis)
    residual = eri_thc - eri_target
    objective = 0.5 * jnp.sum(residual ** 2) + penalty * jnp.sum(zeta ** 2)
    return float(objective)  # XLA: host


def make_inputs():
    k1, k2, k3 = jax.random.split(jax.random.PRNGKey(0), 3)
    chis = jax.random.normal(k1, (3, 4)) * 0.5
    zeta = jax.random.normal(k2, (4, 4)) * 0.5
    eri = jax.random.normal(k3, (3, 3, 3, 3)) * 0.1
    return chis, zeta, eri


# --- oracle ---
def ENTRY():
    return compute_objective_batched, make_inputs()
