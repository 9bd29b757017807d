"""Source: https://github.com/openxla/xla/issues/49185 ("XLA compilation fails with rank mismatch for tf.experimental.numpy.cross after tf.unique(tf.shape())": a vector whose length comes from `tf.unique` reaches `tnp.cross`, whose shape checks become data-dependent under XLA). Here a rigid-body layer keeps the spatial components listed in a (possibly repeated) component-id tensor, deduplicated with `tf.unique`, and computes the torque `r x F` with `tf.experimental.numpy.cross` inside a jit-compiled step."""
import tensorflow as tf

tnp = tf.experimental.numpy


@tf.function(jit_compile=True)
def torque_step(positions, forces, component_ids):
    components, _ = tf.unique(component_ids)
    r = tf.gather(positions, components, axis=-1)
    f = tf.gather(forces, components, axis=-1)
    torque = tnp.cross(r, f)  # XLA: shape
    return tf.reduce_sum(torque, axis=0)


# --- oracle ---
def ENTRY():
    positions = tf.reshape(tf.range(4 * 3, dtype=tf.float32), [4, 3]) / 12.0
    forces = tf.reverse(positions, axis=[1]) - 0.3
    return torque_step, (positions, forces, tf.constant([0, 1, 1, 2]))
