"""Source: https://github.com/proteneer/timemachine/pull/800 ("Make result of generic.Nonbonded.to_reference jax-transformable": `jit(nonbonded_ref)(conf, params, box, lam)` failed with a ConcretizationTypeError because `nonbonded_v3` validates its inputs with `assert` statements on array values; the fix passes `runtime_validate=False`). Here a Lennard-Jones/Coulomb nonbonded energy asserts the periodic box against the cutoff before computing, and is jitted."""
import jax
import jax.numpy as jnp


def delta_r(ri, rj, box):
    diff = ri - rj
    box_diag = jnp.diag(box)
    return diff - box_diag * jnp.round(diff / box_diag)


def nonbonded_energy(conf, params, box, lamb, cutoff=1.2, runtime_validate=True):
    if runtime_validate:
        assert jnp.all(jnp.diag(box) > 2 * cutoff), "box too small for cutoff"  # XLA: host
        assert conf.shape[0] == params.shape[0]
    n = conf.shape[0]
    dr = delta_r(conf[:, None, :], conf[None, :, :], box)
    d2 = jnp.sum(dr ** 2, axis=-1) + lamb ** 2
    d = jnp.sqrt(d2 + jnp.eye(n))
    q, sig, eps = params[:, 0], params[:, 1], params[:, 2]
    qij = q[:, None] * q[None, :]
    sij = 0.5 * (sig[:, None] + sig[None, :])
    eij = jnp.sqrt(eps[:, None] * eps[None, :])
    sr6 = (sij / d) ** 6
    u = qij / d + 4 * eij * (sr6 ** 2 - sr6)
    mask = (1.0 - jnp.eye(n)) * (d < cutoff)
    return 0.5 * jnp.sum(u * mask)


def energy_and_forces(conf, params, box, lamb):
    e, g = jax.value_and_grad(nonbonded_energy)(conf, params, box, lamb)
    return e, -g


# --- oracle ---
def ENTRY():
    conf = jnp.array([[0.1, 0.2, 0.3], [0.6, 0.4, 0.2], [1.0, 1.1, 0.9], [1.7, 0.3, 1.4]])
    params = jnp.array([[0.2, 0.3, 0.5], [-0.2, 0.35, 0.4], [0.1, 0.3, 0.6], [-0.1, 0.32, 0.5]])
    box = jnp.eye(3) * 3.0
    return energy_and_forces, (conf, params, box, jnp.float32(0.1))
