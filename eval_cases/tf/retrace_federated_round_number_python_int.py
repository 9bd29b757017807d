"""Source: https://github.com/google-parfait/tensorflow-federated/issues/2794 ("5 out of the last 9 calls to test_function triggered tf.function retracing" after a few federated rounds: the evaluation function receives the round number as a Python int, so every round traces and compiles again)."""
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(3)])
model.build((None, 4))


@tf.function(jit_compile=True)
def evaluate(x, y, round_num):
    logits = model(x)
    loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(y, logits, from_logits=True))
    decay = 0.9 ** round_num
    return loss * decay


def run_rounds(x, y, n_rounds):
    return [evaluate(x, y, r) for r in range(n_rounds)]  # XLA: retrace


# --- oracle ---
def ENTRY():
    x = tf.reshape(tf.range(8, dtype=tf.float32), [2, 4]) / 8.0
    return evaluate, (x, tf.constant([0, 2]), 1)


def ALT_ARGS():
    x = tf.reshape(tf.range(8, dtype=tf.float32), [2, 4]) / 8.0
    return [(x, tf.constant([0, 2]), 2), (x, tf.constant([0, 2]), 3)]
