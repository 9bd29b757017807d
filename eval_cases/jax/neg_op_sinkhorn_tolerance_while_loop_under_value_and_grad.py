"""Source: https://github.com/google-research/ott/issues/7 ("Reverse-mode differentiation for grad of Sinkhorn"; the maintainers' fix runs the iterations with a `lax.scan` over a fixed number of steps, which reverse-mode differentiation supports). Here the same point-cloud alignment loss runs a fixed number of Sinkhorn iterations with `jax.lax.scan`."""
import jax
import jax.numpy as jnp


def sinkhorn(cost, eps=0.1, n_iter=50):
    n, m = cost.shape
    log_a = jnp.full((n,), -jnp.log(n))
    log_b = jnp.full((m,), -jnp.log(m))

    def body(carry, _):
        f, g = carry
        f = eps * (log_a - jax.nn.logsumexp((g[None, :] - cost) / eps, axis=1))
        g = eps * (log_b - jax.nn.logsumexp((f[:, None] - cost) / eps, axis=0))
        return (f, g), None

    (f, g), _ = jax.lax.scan(body, (jnp.zeros((n,)), jnp.zeros((m,))), None, length=n_iter)
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
