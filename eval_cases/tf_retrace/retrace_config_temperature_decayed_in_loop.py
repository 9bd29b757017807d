"""A Gumbel-softmax temperature kept on a config object that the training loop anneals every
step and passes to the compiled train step: each new Python float is a new trace key, so every
step traces and compiles again.

Rebuilt from yerkojahve/Meta-Pseudo-label#1 (https://github.com/yerkojahve/Meta-Pseudo-label/issues/1):
the snlds trainer passes `learning_rate`, `temperature` and `cross_entrophy_coef`, Python floats
recomputed in its `while` loop, to the tf.function `train_step`; here they live on a config
object, as training scripts often keep them.
"""
import tensorflow as tf


class AnnealConfig:
    def __init__(self, temperature=1.0, decay=0.9, min_temperature=0.1):
        self.temperature = temperature
        self.decay = decay
        self.min_temperature = min_temperature


@tf.function(jit_compile=True)
def sample_step(logits, noise, temperature):
    return tf.nn.softmax((logits + noise) / temperature, axis=-1)


def run(logits, noises, steps):
    config = AnnealConfig()
    outputs = []
    step = 0
    while step < steps:
        outputs.append(sample_step(logits, noises[step % len(noises)], config.temperature))  # XLA: retrace
        config.temperature = max(config.min_temperature, config.temperature * config.decay)
        step += 1
    return outputs


# --- oracle ---
WRAP = False


def ENTRY():
    return run, (tf.constant([[1.0, 2.0, 0.5]]), [tf.constant([[0.1, -0.2, 0.3]])], 2)


def ALT_ARGS():
    return [(tf.constant([[0.5, 1.0, 1.5]]), [tf.constant([[0.2, 0.1, -0.1]])], 3)]
