"""Source: https://github.com/openxla/xla/issues/49185 (`tnp.cross` fails to compile when its vector length comes from `tf.unique`). The near miss here: `tf.unique` only selects which bodies (rows) take part, the last axis stays the static 3 spatial components, so `tf.experimental.numpy.cross` sees 3-element vectors and the step compiles."""
import tensorflow as tf

tnp = tf.experimental.numpy


@tf.function(jit_compile=True)
def torque_step(positions, forces, body_ids):
    bodies, _ = tf.unique(body_ids)
    r = tf.gather(positions, bodies)
    f = tf.gather(forces, bodies)
    torque = tnp.cross(r[1] - r[0], f[2] - f[0])
    return torque


# --- oracle ---
def ENTRY():
    positions = tf.reshape(tf.range(6 * 3, dtype=tf.float32), [6, 3]) / 18.0
    forces = tf.reverse(positions, axis=[1]) - 0.3
    return torque_step, (positions, forces, tf.constant([0, 2, 2, 4, 0]))
