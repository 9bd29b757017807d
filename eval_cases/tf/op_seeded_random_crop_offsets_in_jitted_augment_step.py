"""Source: https://github.com/tensorflow/tpu/issues/971 ("Reproducibility when training models on TPU VMs": seeded runs stop being reproducible once random crop/flip augmentation is added, and the log says "Using tf.random.uniform with XLA compilation will ignore seeds; consider using tf.random.stateless_uniform instead"). Here a training step that draws seeded random crop offsets and a seeded flip decision with `tf.random.uniform(..., seed=...)` inside the jit-compiled step, as a TPU step is compiled, and returns the augmented batch."""
import tensorflow as tf

CROP = 6


@tf.function(jit_compile=True)
def augment(images):
    n, h, w = images.shape[0], images.shape[1], images.shape[2]
    dy = tf.random.uniform([], 0, h - CROP + 1, dtype=tf.int32, seed=11)  # XLA: op
    dx = tf.random.uniform([], 0, w - CROP + 1, dtype=tf.int32, seed=12)
    crops = tf.slice(images, tf.stack([0, dy, dx, 0]), [n, CROP, CROP, images.shape[3]])
    flip = tf.random.uniform([], seed=13) < 0.5
    return tf.where(flip, tf.reverse(crops, axis=[2]), crops)


# --- oracle ---
WRAP = False


def ENTRY():
    images = tf.reshape(tf.range(2 * 8 * 8 * 1, dtype=tf.float32), [2, 8, 8, 1])
    return augment, (images,)
