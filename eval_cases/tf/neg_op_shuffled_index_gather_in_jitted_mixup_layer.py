"""Source: https://github.com/tensorflow/tensorflow/issues/48268 ("XLA compilation bug in TPU involving indirection through index tensors": a Keras layer shuffles the batch through `tf.random.shuffle(tf.range(n))` and `tf.gather` so two tensors get the same permutation; it works on CPU/GPU but failed TPU compilation). Here a mixup layer pairs each example with a shuffled partner through a shuffled index vector inside a jit-compiled call; on TF 2.21 XLA:CPU it compiles (outputs are random, so only compilation is compared)."""
import tensorflow as tf


class Mixup(tf.keras.layers.Layer):
    def call(self, images, labels):
        n = tf.shape(images)[0]
        order = tf.random.shuffle(tf.range(n))
        lam = 0.7
        mixed_images = lam * images + (1.0 - lam) * tf.gather(images, order)
        mixed_labels = lam * labels + (1.0 - lam) * tf.gather(labels, order)
        return mixed_images, mixed_labels


mixup = Mixup()


@tf.function(jit_compile=True)
def mix_batch(images, labels):
    return mixup(images, labels)


# --- oracle ---
def ENTRY():
    images = tf.reshape(tf.range(4 * 3 * 3, dtype=tf.float32), [4, 3, 3, 1])
    labels = tf.one_hot([0, 1, 2, 1], 3)
    return mix_batch, (images, labels)


COMPARE = False
