"""Source: https://github.com/wilson-labs/cola/issues/120 ("[Bug] Jax can't compute gradient of function that uses Lanczos algorithm"; the way around it: run a fixed number of Lanczos steps with `lax.scan`, which reverse mode can differentiate, instead of a tolerance-driven `while_loop`). Here the same kernel-learning objective runs its Lanczos tridiagonalisation as a `scan` of fixed length."""
import jax
import jax.numpy as jnp


def lanczos_logdet(a, probe, n_iter=6):
    n = a.shape[0]
    q0 = probe / jnp.linalg.norm(probe)

    def body(carry, _):
        q_prev, q, beta = carry
        v = a @ q - beta * q_prev
        alpha = q @ v
        v = v - alpha * q
        beta_new = jnp.linalg.norm(v)
        q_next = v / jnp.maximum(beta_new, 1e-12)
        return (q, q_next, beta_new), (alpha, beta_new)

    _, (alphas, betas) = jax.lax.scan(body, (jnp.zeros((n,)), q0, 0.0), None, length=n_iter)
    t = jnp.diag(alphas) + jnp.diag(betas[:-1], 1) + jnp.diag(betas[:-1], -1)
    evals, evecs = jnp.linalg.eigh(t + 1e-6 * jnp.eye(n_iter))
    return n * jnp.sum(evecs[0] ** 2 * jnp.log(jnp.abs(evals) + 1e-6))


def objective(log_ls, x, y, probe):
    d = jnp.sum((x[:, None, :] - x[None, :, :]) ** 2, axis=-1)
    k = jnp.exp(-0.5 * d / jnp.exp(2 * log_ls)) + 0.1 * jnp.eye(x.shape[0])
    return 0.5 * y @ jnp.linalg.solve(k, y) + 0.5 * lanczos_logdet(k, probe)


@jax.jit
def kernel_step(log_ls, x, y, probe, lr=0.05):
    return log_ls - lr * jax.grad(objective)(log_ls, x, y, probe)


# --- oracle ---
def ENTRY():
    x = jnp.linspace(0.0, 3.0, 8)[:, None]
    y = jnp.sin(2.0 * x[:, 0])
    probe = jnp.array([1.0, -1.0, 1.0, 1.0, -1.0, 1.0, -1.0, -1.0])
    return kernel_step, (jnp.float32(0.0), x, y, probe)
