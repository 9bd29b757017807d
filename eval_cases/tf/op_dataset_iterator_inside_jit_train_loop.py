"""Source: https://github.com/tensorflow/tensorflow/issues/43665 ("No registered 'IteratorGetNext' OpKernel for XLA_GPU_JIT": pulling batches from a tf.data iterator inside the jit-compiled training loop)."""
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)])
optimizer = tf.keras.optimizers.SGD(0.05)
_KEEP = []


def make_runner(dataset):
    iterator = iter(dataset)
    _KEEP.append(iterator)

    @tf.function(jit_compile=True)
    def run_steps(n_steps):
        total = tf.constant(0.0)
        for _ in tf.range(n_steps):
            x, y = next(iterator)  # XLA: op
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(model(x) - y))
            optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
            total += loss
        return total

    return run_steps


# --- oracle ---
WRAP = False


def ENTRY():
    x = tf.reshape(tf.range(48, dtype=tf.float32), [16, 3]) / 48.0
    y = tf.reduce_sum(x, axis=1, keepdims=True)
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(4).repeat()
    return make_runner(ds), (tf.constant(2),)
