"""A custom training loop with the recompile hazards of XLA402-409, and their correct twins."""
import math

import numpy as np
import tensorflow as tf


class Trainer:
    def __init__(self, model):
        self.model = model
        self.optimizer = tf.keras.optimizers.SGD(0.1)
        self.calls = 0
        self.loss_log = []
        self.step_var = tf.Variable(0, dtype=tf.int64, trainable=False)

    @tf.function(jit_compile=True)
    def train_step(self, x, y, lr_scale):
        self.calls += 1  # error: XLA406
        self.step_var.assign_add(1)
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self.model(x) - y)) * lr_scale
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        self.loss_log.append(loss)  # error: XLA406
        return loss

    @tf.function(jit_compile=True)
    def eval_step(self, x):
        accuracy = tf.keras.metrics.Mean()  # error: XLA405
        accuracy.update_state(self.model(x))
        return accuracy.result()

    def fit(self, features, labels, epochs):
        ds = tf.data.Dataset.from_tensor_slices((features, labels)).shuffle(1024).batch(32)  # error: XLA402
        for epoch in range(epochs):
            scale = 0.5 * (1 + math.cos(math.pi * epoch / epochs))
            for x, y in ds:
                self.train_step(x, y, scale)  # error: XLA403
                self.train_step(x, y, np.float32(scale))  # NumPy scalars are traced as tensors

    def evaluate(self, features):
        ds = tf.data.Dataset.from_tensor_slices(features).batch(32, drop_remainder=True)
        return [self.eval_step(x) for x in ds]


def predict(model, x):
    run = tf.function(model, jit_compile=True)  # preview: XLA404 (built from the call's own argument)
    return run(x)


@tf.function(jit_compile=True, input_signature=[tf.TensorSpec([None, None], tf.int32)])  # error: XLA408
def embed(ids):
    return tf.one_hot(ids, 8)


def embed_all(tokenized):
    return [embed(ids) for ids in tokenized]  # every new length: one more XLA compilation


@tf.function(jit_compile=True)
def next_token(ids):
    return tf.argmax(tf.reduce_sum(tf.one_hot(ids, 8), axis=1), axis=-1, output_type=ids.dtype)


def generate(ids, steps):
    for _ in range(steps):
        token = next_token(ids)  # preview: XLA409
        ids = tf.concat([ids, token[:, None]], axis=1)
    return ids


@tf.function  # error: XLA407
def serving(ids):
    return embed(ids)


def predict_doubled(x):
    run = tf.function(lambda v: v * 2.0, jit_compile=True)  # preview: XLA404 (no caller in view)
    return run(x)
