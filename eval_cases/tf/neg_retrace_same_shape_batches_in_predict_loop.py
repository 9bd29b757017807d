"""Source: https://github.com/tensorflow/tensorflow/issues/41347 ("11 out of the last 11 calls to train_function triggered tf.function retracing" with Keras, fixed in TF 2.3: a compiled predictor called in a loop on batches of one fixed shape and dtype traces once)."""
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)])
model.build((None, 3))


@tf.function(jit_compile=True)
def predict_batch(x):
    return model(x, training=False)


def predict_all(batches):
    return [predict_batch(b) for b in batches]


# --- oracle ---
def ENTRY():
    return predict_batch, (tf.reshape(tf.range(6, dtype=tf.float32), [2, 3]) / 6.0,)


def ALT_ARGS():
    return [(tf.ones([2, 3]) * 0.2,), (tf.reshape(tf.range(6, 12, dtype=tf.float32), [2, 3]) / 12.0,)]
