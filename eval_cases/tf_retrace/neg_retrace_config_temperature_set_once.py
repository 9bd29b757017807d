"""The temperature is read from a config object at every step, but nothing in the loop changes it:
the same Python float reaches every call, one trace and one compilation.

Near miss for yerkojahve/Meta-Pseudo-label#1 (https://github.com/yerkojahve/Meta-Pseudo-label/issues/1):
a Python float argument costs a trace per *distinct* value; a fixed one costs one.
"""
import tensorflow as tf


class SampleConfig:
    def __init__(self, temperature=0.7, top_k=3):
        self.temperature = temperature
        self.top_k = top_k


@tf.function(jit_compile=True)
def sample_step(logits, noise, temperature):
    return tf.nn.softmax((logits + noise) / temperature, axis=-1)


def run(logits, noises, steps):
    config = SampleConfig()
    outputs = []
    step = 0
    while step < steps:
        outputs.append(sample_step(logits, noises[step % len(noises)], config.temperature))
        step += 1
    return outputs


# --- oracle ---
WRAP = False


def ENTRY():
    return run, (tf.constant([[1.0, 2.0, 0.5]]), [tf.constant([[0.1, -0.2, 0.3]])], 2)


def ALT_ARGS():
    return [(tf.constant([[0.5, 1.0, 1.5]]), [tf.constant([[0.2, 0.1, -0.1]])], 3)]
