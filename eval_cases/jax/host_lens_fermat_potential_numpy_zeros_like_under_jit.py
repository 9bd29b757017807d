"""Source: https://github.com/Herculens/herculens/issues/58 (`MassModel.fermat_potential`/`potential` inside a numpyro log-density: a plain call works but `jax.jit` fails with TracerArrayConversionError, because the potential is allocated with `np.zeros_like(x)`; the reporter's fix is `np -> jnp`). Here a lens model sums the potentials of its profiles into a NumPy buffer inside a jitted time-delay likelihood."""
import jax
import jax.numpy as jnp
import numpy as np


def sis_potential(x, y, theta_e, center_x, center_y):
    return theta_e * jnp.sqrt((x - center_x) ** 2 + (y - center_y) ** 2 + 1e-8)


def shear_potential(x, y, gamma1, gamma2):
    return 0.5 * gamma1 * (x ** 2 - y ** 2) + gamma2 * x * y


class MassModel:
    def potential(self, x, y, kwargs):
        potential = np.zeros_like(x)  # XLA: host
        potential = potential + sis_potential(x, y, **kwargs["sis"])
        potential = potential + shear_potential(x, y, **kwargs["shear"])
        return potential

    def fermat_potential(self, x_image, y_image, x_source, y_source, kwargs):
        geometry = 0.5 * ((x_image - x_source) ** 2 + (y_image - y_source) ** 2)
        return geometry - self.potential(x_image, y_image, kwargs)


MODEL = MassModel()


@jax.jit
def time_delay_log_likelihood(theta_e, x_image, y_image, observed_delays):
    kwargs = {"sis": {"theta_e": theta_e, "center_x": 0.0, "center_y": 0.0},
              "shear": {"gamma1": 0.02, "gamma2": -0.01}}
    phi = MODEL.fermat_potential(x_image, y_image, 0.05, -0.02, kwargs)
    delays = 30.0 * (phi[1:] - phi[0])
    return -0.5 * jnp.sum((delays - observed_delays) ** 2)


# --- oracle ---
def ENTRY():
    x_image = jnp.array([1.1, -0.9, 0.2, -0.3])
    y_image = jnp.array([0.3, -0.4, 1.0, -1.05])
    return time_delay_log_likelihood, (jnp.float32(1.0), x_image, y_image, jnp.array([1.0, -2.0, 0.5]))
