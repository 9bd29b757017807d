"""Source: https://github.com/fishjojo/pyscfad/issues/34 (the periodic stress example reached NumPy with a traced float64[3,3] lattice; the fix keeps that path in jax.numpy). Here the jitted Ewald-like energy of a periodic cell takes its volume with `jnp.linalg.det` of the traced lattice."""
import jax
import jax.numpy as jnp


def cell_volume(lattice):
    return jnp.abs(jnp.linalg.det(lattice))


@jax.jit
def energy_and_stress(lattice, frac_coords, charges):
    def energy(lat):
        volume = cell_volume(lat)
        cart = frac_coords @ lat
        diff = cart[:, None, :] - cart[None, :, :]
        dist = jnp.sqrt(jnp.sum(diff ** 2, axis=-1) + jnp.eye(cart.shape[0]))
        pair = jnp.sum(jnp.triu(charges[:, None] * charges[None, :] / dist, k=1))
        return pair + 0.5 * jnp.sum(charges ** 2) / volume ** (1.0 / 3.0)

    e, de_dlat = jax.value_and_grad(energy)(lattice)
    return e, de_dlat @ lattice.T / cell_volume(lattice)


# --- oracle ---
def ENTRY():
    lattice = jnp.array([[3.6, 0.0, 0.0], [0.0, 3.6, 0.0], [0.0, 0.0, 3.6]])
    frac = jnp.array([[0.0, 0.0, 0.0], [0.5, 0.5, 0.5]])
    return energy_and_stress, (lattice, frac, jnp.array([1.0, -1.0]))
