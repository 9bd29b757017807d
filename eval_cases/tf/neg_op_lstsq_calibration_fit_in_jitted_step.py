"""Source: https://github.com/tensorflow/tensorflow/issues/62378 ("Least squares is 50% slower when activating JIT compile": `tf.linalg.lstsq` under `jit_compile=True` is slower, but compiles and agrees). Here a sensor-calibration step fits a gain and offset per channel with `tf.linalg.lstsq` inside its jit-compiled call."""
import tensorflow as tf


class Calibrator(tf.Module):
    @tf.function(jit_compile=True)
    def __call__(self, readings, reference):
        design = tf.stack([readings, tf.ones_like(readings)], axis=-1)
        coeffs = tf.linalg.lstsq(design, reference[:, None])
        return tf.squeeze(coeffs, -1)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    c = Calibrator()
    _KEEP.append(c)
    readings = tf.linspace(0.0, 5.0, 16)
    reference = 1.8 * readings + 0.3 + 0.01 * tf.sin(readings * 7.0)
    return c.__call__, (readings, reference)
