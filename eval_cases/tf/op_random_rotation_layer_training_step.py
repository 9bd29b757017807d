"""Source: https://github.com/tensorflow/tensorflow/issues/42454 (Keras 'Random' preprocessing layers fail under XLA: ImageProjectiveTransformV2 has no XLA_TPU_JIT kernel)."""
import tensorflow as tf

augment = tf.keras.Sequential([tf.keras.layers.RandomRotation(0.1), tf.keras.layers.RandomTranslation(0.1, 0.1)])


@tf.function(jit_compile=True)
def augment_batch(images):
    return augment(images, training=True)  # XLA: op


# --- oracle ---
COMPARE = False


def ENTRY():
    return augment_batch, (tf.reshape(tf.range(2 * 6 * 6 * 1, dtype=tf.float32) / 72.0, [2, 6, 6, 1]),)
