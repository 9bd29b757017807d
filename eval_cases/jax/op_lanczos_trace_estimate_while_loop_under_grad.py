"""Source: https://github.com/wilson-labs/cola/issues/120 ("[Bug] Jax can't compute gradient of function that uses Lanczos algorithm": `jax.grad` of a trace computed from Lanczos eigenvalues failed, because the Lanczos iteration runs in a `while_loop` that stops on a tolerance, which JAX cannot differentiate in reverse mode). Here a kernel-learning objective estimates a log-determinant with a Lanczos tridiagonalisation that iterates until the off-diagonal term is small, and a jitted step takes `jax.grad` of it."""
import jax
import jax.numpy as jnp


def lanczos_logdet(a, probe, max_iter=6, tol=1e-5):
    n = a.shape[0]
    q0 = probe / jnp.linalg.norm(probe)

    def cond(state):
        _, _, _, _, beta, k = state
        return (beta > tol) & (k < max_iter)

    def body(state):
        q_prev, q, alphas, betas, beta, k = state
        v = a @ q - beta * q_prev
        alpha = q @ v
        v = v - alpha * q
        beta_new = jnp.linalg.norm(v)
        q_next = v / jnp.maximum(beta_new, 1e-12)
        return q, q_next, alphas.at[k].set(alpha), betas.at[k].set(beta_new), beta_new, k + 1

    init = (jnp.zeros((n,)), q0, jnp.zeros((max_iter,)), jnp.zeros((max_iter,)), 1.0, 0)
    _, _, alphas, betas, _, _ = jax.lax.while_loop(cond, body, init)  # XLA: op
    t = jnp.diag(alphas) + jnp.diag(betas[:-1], 1) + jnp.diag(betas[:-1], -1)
    evals, evecs = jnp.linalg.eigh(t + 1e-6 * jnp.eye(max_iter))
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
