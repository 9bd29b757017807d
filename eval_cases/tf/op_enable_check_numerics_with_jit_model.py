"""Source: https://github.com/tensorflow/tensorflow/issues/59215 ("tf.debugging.enable_check_numerics() doesn't work with XLA JIT compilation": the instrumentation inserts DebugNumericSummaryV2 ops, which have no XLA kernel)."""
import tensorflow as tf

tf.debugging.enable_check_numerics()

model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(3)])


@tf.function(jit_compile=True)
def predict(x):
    return tf.nn.softmax(model(x))  # XLA: op


# --- oracle ---
def ENTRY():
    return predict, (tf.reshape(tf.range(8, dtype=tf.float32), [2, 4]) / 8.0,)
