"""A hand-written training loop: what retraces and what is frozen at trace time."""
import numpy as np
import tensorflow as tf


class Trainer:
    def __init__(self, dim=4):
        self.w = tf.Variable(tf.zeros([dim, 1]))
        self.calls = 0
        self.lr = tf.Variable(0.1, trainable=False)
        self.ema = None

    @tf.function(jit_compile=True)
    def step(self, x, y):
        self.calls += 1  # error: XLA406
        if self.ema is None:
            self.ema = tf.Variable(0.0, trainable=False)
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.matmul(x, self.w) - y))
        self.w.assign_sub(self.lr * tape.gradient(loss, self.w))
        self.ema.assign(0.9 * self.ema + 0.1 * loss)
        return loss


@tf.function(jit_compile=True)
def scaled_loss(pred, target, scale):
    seen = tf.Variable(0, trainable=False)  # error: XLA405
    seen.assign_add(1)
    return tf.reduce_mean(tf.square(pred - target)) * scale


def fit(trainer, features, labels, epochs=2):
    ds = tf.data.Dataset.from_tensor_slices((features, labels)).batch(8)  # error: XLA402
    scale = 1.0
    for epoch in range(epochs):
        for x, y in ds:
            trainer.step(x, y)
            scaled_loss(x, y, scale)  # error: XLA403
            scaled_loss(x, y, tf.constant(epoch, tf.float32))
            scaled_loss(x, y, epoch)  # error: XLA403
        scale = scale * 0.5
    return trainer


def fixed_batches(features, labels):
    return tf.data.Dataset.from_tensor_slices((features, labels)).batch(8, drop_remainder=True)


def loss_on_the_fly(pred, target):
    fast = tf.function(lambda a, b: tf.reduce_mean(tf.abs(a - b)), jit_compile=True)  # preview: XLA404 (no caller here)
    return fast(pred, target)


def numpy_scales(pred, target, scales):
    return [scaled_loss(pred, target, np.float32(s)) for s in scales]
