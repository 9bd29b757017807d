"""Source: https://github.com/google-research/ott/issues/7 ("Reverse-mode differentiation for grad of Sinkhorn": a graph-matching model trained with `value_and_grad` through OTT's Sinkhorn solver failed with "Reverse-mode differentiation does not work for lax.while_loop", because the solver iterated to a tolerance with `lax.while_loop`; the maintainers moved the outer loop to a `scan` over a fixed number of iterations). Here a point-cloud alignment loss runs log-domain Sinkhorn iterations in a `while_loop` until the marginal error drops below a tolerance and is differentiated with `jax.value_and_grad` in the training step."""
import jax
import jax.numpy as jnp


def sinkhorn(cost, eps=0.1, tol=1e-4, max_iter=200):
    n, m = cost.shape
    log_a = jnp.full((n,), -jnp.log(n))
    log_b = jnp.full((m,), -jnp.log(m))

    def body(state):
        f, g, _, it = state
        f = eps * (log_a - jax.nn.logsumexp((g[None, :] - cost) / eps, axis=1))
        g = eps * (log_b - jax.nn.logsumexp((f[:, None] - cost) / eps, axis=0))
        plan = jnp.exp((f[:, None] + g[None, :] - cost) / eps)
        err = jnp.sum(jnp.abs(plan.sum(1) - jnp.exp(log_a)))
        return f, g, err, it + 1

    def cond(state):
        _, _, err, it = state
        return (err > tol) & (it < max_iter)

    init = (jnp.zeros((n,)), jnp.zeros((m,)), jnp.inf, 0)
    f, g, _, _ = jax.lax.while_loop(cond, body, init)  # XLA: op
    return jnp.exp((f[:, None] + g[None, :] - cost) / eps)


def alignment_loss(w, x, y):
    xt = x @ w
    cost = jnp.sum((xt[:, None, :] - y[None, :, :]) ** 2, axis=-1)
    return jnp.sum(sinkhorn(cost) * cost)


@jax.jit
def train_step(w, x, y, lr=0.05):
    loss, g = jax.value_and_grad(alignment_loss)(w, x, y)
    return w - lr * g, loss


# --- oracle ---
def ENTRY():
    x = jnp.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    y = jnp.array([[0.1, 0.0], [0.9, 0.2], [0.0, 1.1], [1.2, 0.9]])
    return train_step, (jnp.eye(2), x, y)
