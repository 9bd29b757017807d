"""Source: https://github.com/tensorflow/tensorflow/issues/43723 ("XLA Compilation Bug": per-example gradients of a logistic loss vectorized with pfor failed under `experimental_compile=True` with "Output shapes of then and else branches do not match: (f32[100,1]) vs. (f32[100])"; the maintainers report it fixed from TF 2.6). Here a differentially-private style step clips per-example gradients of `tf.nn.sigmoid_cross_entropy_with_logits` computed with `tf.vectorized_map` inside the jit-compiled function; on TF 2.21 it compiles."""
import tensorflow as tf

model = tf.keras.layers.Dense(1)
model.build((None, 3))


def example_grad(example):
    x, y = example
    with tf.GradientTape() as tape:
        logit = model(x[None, :])
        loss = tf.nn.sigmoid_cross_entropy_with_logits(labels=y[None, :], logits=logit)
    return tape.gradient(loss, model.kernel)


@tf.function(jit_compile=True)
def clipped_mean_grad(x, y):
    grads = tf.vectorized_map(example_grad, (x, y))
    norms = tf.norm(tf.reshape(grads, [tf.shape(grads)[0], -1]), axis=-1)
    factor = tf.minimum(1.0, 1.0 / (norms + 1e-6))
    return tf.reduce_mean(grads * factor[:, None, None], axis=0)


# --- oracle ---
def ENTRY():
    x = tf.reshape(tf.range(5 * 3, dtype=tf.float32), [5, 3]) / 15.0
    y = tf.constant([[0.0], [1.0], [1.0], [0.0], [1.0]])
    return clipped_mean_grad, (x, y)
