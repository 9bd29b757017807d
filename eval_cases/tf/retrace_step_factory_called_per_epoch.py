"""Source: https://github.com/tensorflow/tensorflow/issues/42000 (get_apply_grad_fn() builds a new @tf.function train step each time it is called, here once per epoch)."""
import tensorflow as tf


def get_apply_grad_fn(model):
    @tf.function(jit_compile=True)  # XLA: retrace
    def predict_step(batch_input):
        return tf.reduce_mean(model(batch_input))
    return predict_step


class Runner:
    def __init__(self):
        self.model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        self.model.build([None, 2])

    def run_epoch(self, batch):
        return get_apply_grad_fn(self.model)(batch)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    r = Runner()
    _KEEP.append(r)
    return r.run_epoch, (tf.constant([[1.0, 2.0]]),)


def ALT_ARGS():
    return [(tf.constant([[2.0, 3.0]]),), (tf.constant([[0.0, 1.0]]),)]
