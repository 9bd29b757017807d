"""A fresh (plain-class) config object passed to the compiled step on every call.

Rebuilt from tensorflow/tensorflow#46012 (https://github.com/tensorflow/tensorflow/issues/46012)
and the retracing warning's cause "(3) passing Python objects instead of tensors": a new object
of a class without value equality is a new trace key each time.
"""
import tensorflow as tf


class LossConfig:
    def __init__(self, margin):
        self.margin = margin


@tf.function(jit_compile=True)
def hinge(scores, labels, cfg):
    return tf.reduce_mean(tf.nn.relu(cfg.margin - scores * labels))


def epoch_loss(batches):
    return [hinge(s, y, LossConfig(1.0)) for s, y in batches]  # XLA: retrace


# --- oracle ---
WRAP = False


def ENTRY():
    return epoch_loss, ([(tf.constant([0.5, -1.0]), tf.constant([1.0, -1.0]))],)


def ALT_ARGS():
    return [([(tf.constant([2.0, 0.3]), tf.constant([1.0, -1.0]))] * 2,)]
