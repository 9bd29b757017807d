"""Source: https://github.com/tensorflow/tensorflow/issues/42662 (a custom warmup-cosine learning rate schedule in the style of SwAV, written with TensorFlow ops on the step tensor as the schedule must be inside a traced train step; Python's math is used only on constants)."""
import math

import tensorflow as tf


class WarmupCosine(tf.keras.optimizers.schedules.LearningRateSchedule):
    def __init__(self, base_lr, warmup_steps, total_steps):
        self.base_lr = base_lr
        self.warmup_steps = warmup_steps
        self.total_steps = total_steps

    def __call__(self, step):
        step = tf.cast(step, tf.float32)
        warm = self.base_lr * step / self.warmup_steps
        progress = (step - self.warmup_steps) / (self.total_steps - self.warmup_steps)
        cosine = 0.5 * self.base_lr * (1.0 + tf.math.cos(math.pi * progress))
        return tf.where(step < self.warmup_steps, warm, cosine)


# --- oracle ---
def ENTRY():
    return WarmupCosine(0.1, 10.0, 100.0), (tf.constant(40),)
