"""Source: https://github.com/deepmodeling/deepmd-kit/pull/4766 (fix twin: the pull request's `xp.where(find_property, loss, xp.nan)`). The same jitted energy/force loss selects the displayed value with `jnp.where` on the traced label flag. (Energy and force loss of a machine-learned interatomic potential.)"""
import jax
import jax.numpy as jnp


def display_if_exist(loss, find_property):
    return jnp.where(find_property, loss, jnp.nan)


@jax.jit
def energy_force_loss(pred_e, label_e, pred_f, label_f, find_energy, find_force, pref_e=0.1, pref_f=1.0):
    l2_e = jnp.mean((pred_e - label_e) ** 2)
    l2_f = jnp.mean((pred_f - label_f) ** 2)
    loss = pref_e * find_energy * l2_e + pref_f * find_force * l2_f
    more = {"rmse_e": display_if_exist(jnp.sqrt(l2_e), find_energy),
            "rmse_f": display_if_exist(jnp.sqrt(l2_f), find_force)}
    return loss, more


# --- oracle ---
def ENTRY():
    pred_e = jnp.array([-3.1, -2.9])
    label_e = jnp.array([-3.0, -3.0])
    pred_f = jnp.linspace(-0.2, 0.2, 2 * 4 * 3).reshape(2, 4, 3)
    label_f = jnp.zeros((2, 4, 3))
    return energy_force_loss, (pred_e, label_e, pred_f, label_f, jnp.float32(1.0), jnp.float32(1.0))
