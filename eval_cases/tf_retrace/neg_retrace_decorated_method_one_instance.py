"""The scorer of tensorflow/tensorflow#46012's pattern, but one instance serves every batch.

Counterpart of https://github.com/tensorflow/tensorflow/issues/46012.
"""
import tensorflow as tf


class Scorer:
    def __init__(self, temperature):
        self.temperature = temperature

    @tf.function(jit_compile=True)
    def score(self, logits):
        return tf.nn.softmax(logits / self.temperature)


SCORER = Scorer(2.0)


def score_batch(logits):
    return SCORER.score(logits)


# --- oracle ---
WRAP = False


def ENTRY():
    return score_batch, (tf.constant([[1.0, 2.0, 3.0]]),)


def ALT_ARGS():
    return [(tf.constant([[3.0, 2.0, 1.0]]),), (tf.constant([[0.0, 0.0, 1.0]]),)]
