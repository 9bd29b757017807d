"""Source: https://github.com/grahamgower/genomatnn/issues/13 ("fix tf function retracing for genomatnn apply": `predict_on_batch` over chunks of genomic windows retraces, "5 out of the last 27 calls ... triggered tf.function retracing", because the chunks do not all have the same size; the suggested fix is a generator that yields a fixed size per batch). Here a window classifier whose jit-compiled predict function is applied to consecutive chunks of a chromosome's windows, the last chunk shorter."""
import tensorflow as tf


class WindowClassifier:
    def __init__(self):
        self.model = tf.keras.Sequential([
            tf.keras.layers.Conv1D(4, 3, activation="relu"),
            tf.keras.layers.GlobalMaxPooling1D(),
            tf.keras.layers.Dense(1, activation="sigmoid"),
        ])
        self.model.build([None, 16, 2])
        self.predict_fn = tf.function(self.model, jit_compile=True)

    def apply(self, windows, chunk=3):
        preds = []
        for start in range(0, windows.shape[0], chunk):
            preds.append(self.predict_fn(windows[start:start + chunk]))  # XLA: retrace
        return tf.concat(preds, axis=0)


def chromosome_windows(n):
    return tf.reshape(tf.range(n * 32, dtype=tf.float32), [n, 16, 2]) / (n * 32.0)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    c = WindowClassifier()
    _KEEP.append(c)
    return c.apply, (chromosome_windows(6),)


def ALT_ARGS():
    return [(chromosome_windows(7),), (chromosome_windows(8),)]
