"""Source: https://github.com/grahamgower/genomatnn/issues/13 (the fix: yield a fixed size per batch; here the window list is padded to a whole number of chunks before prediction and the padding rows dropped afterwards, so the jit-compiled predict function always sees one shape). Window classifier over a chromosome's windows."""
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
        n = windows.shape[0]
        padded = tf.pad(windows, [[0, (-n) % chunk], [0, 0], [0, 0]])
        preds = []
        for start in range(0, padded.shape[0], chunk):
            preds.append(self.predict_fn(padded[start:start + chunk]))
        return tf.concat(preds, axis=0)[:n]


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
