"""Source: https://github.com/artemmavrin/focal-loss/issues/19 (SparseCategoricalFocalLoss could not be compiled on TPU while SparseCategoricalCrossentropy could; on TF 2.21 XLA:CPU the focal loss written with gather-by-label and pow compiles under jit_compile on XLA:CPU)."""
import tensorflow as tf


def sparse_categorical_focal_loss(y_true, logits, gamma=2.0):
    probs = tf.nn.softmax(logits, axis=-1)
    p_t = tf.gather(probs, tf.cast(y_true, tf.int32), axis=-1, batch_dims=1)
    ce = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.cast(y_true, tf.int32), logits=logits)
    return tf.pow(1.0 - p_t, gamma) * ce


model = tf.keras.Sequential([tf.keras.layers.Dense(3)])


@tf.function(jit_compile=True)
def loss_step(x, y):
    return tf.reduce_mean(sparse_categorical_focal_loss(y, model(x)))


# --- oracle ---
def ENTRY():
    return loss_step, (tf.reshape(tf.range(8, dtype=tf.float32), [2, 4]) / 8.0, tf.constant([2, 0]))
