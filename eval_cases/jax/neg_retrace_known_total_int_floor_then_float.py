"""Source: https://github.com/ryan112358/mbi/pull/201 ("Return a float from minimum_variance_unbiased_total": a Python int returned by `max(1, ...)` made `known_total` an int leaf in one call and a float in the next, missing the JIT cache; the fix uses the float floor `1.0`). Here the fixed estimator: the total is always a Python float, so every call of the jitted mirror-descent step sees the same weakly typed float leaf."""
import jax
import jax.numpy as jnp


def minimum_variance_unbiased_total(noisy_marginals, stddevs):
    weights = 1.0 / jnp.asarray(stddevs) ** 2
    totals = jnp.asarray([m.sum() for m in noisy_marginals])
    estimate = float(jnp.sum(weights * totals) / jnp.sum(weights))
    return max(1.0, estimate)


@jax.jit
def mirror_descent_step(log_potentials, observed, known_total, lr):
    probs = jax.nn.softmax(log_potentials)
    marginal = known_total * probs
    grad = (marginal - observed) / known_total
    return log_potentials - lr * grad, jnp.sum((marginal - observed) ** 2)


def estimate(noisy_marginals, stddevs, n_iters=5):
    known_total = minimum_variance_unbiased_total(noisy_marginals, stddevs)
    log_potentials = jnp.zeros(noisy_marginals[0].shape[0])
    for _ in range(n_iters):
        log_potentials, loss = mirror_descent_step(log_potentials, noisy_marginals[0], known_total, 0.5)
    return log_potentials, loss


# --- oracle ---
WRAP = False


def ENTRY():
    return estimate, ([jnp.array([3.0, 5.0, 2.0]), jnp.array([4.0, 6.0, 0.5])], [1.0, 2.0])


def ALT_ARGS():
    return [([jnp.array([0.2, -0.1, 0.3]), jnp.array([0.1, 0.05, -0.2])], [1.0, 2.0])]
