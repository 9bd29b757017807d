"""Source: https://github.com/tensorflow/tpu/issues/890 ("No registered 'EuclideanNorm' OpKernel for XLA_TPU_JIT devices": training a pretrained EfficientNet with the AdamP optimizer on a TPU fails to compile, because AdamP's projection measures weight and gradient norms with `euclidean_norm`, whose `EuclideanNorm` op has no XLA kernel). Here a classifier head is trained in a jit-compiled step with an AdamP-style projected momentum update whose cosine test uses `tf.math.reduce_euclidean_norm`. (Image-feature classifier fine-tuned with an AdamP-style optimizer.)"""
import math

import tensorflow as tf


def channel_view(x):
    return tf.reshape(x, [x.shape[0], -1]) if x.shape.rank > 1 else tf.reshape(x, [1, -1])


def cosine_to_weight(grad, weight, eps=1e-8):
    g, w = channel_view(grad), channel_view(weight)
    g_norm = tf.math.reduce_euclidean_norm(g, axis=-1) + eps  # XLA: op
    w_norm = tf.math.reduce_euclidean_norm(w, axis=-1) + eps  # XLA: op
    return tf.abs(tf.reduce_sum(g * w, axis=-1)) / (g_norm * w_norm)


def project_update(update, weight, grad, delta=0.1, eps=1e-8):
    cos = cosine_to_weight(grad, weight)
    dim = channel_view(weight).shape[-1]
    scale_invariant = tf.reduce_max(cos) < delta / math.sqrt(dim)
    w = channel_view(weight)
    w_unit = w / (tf.norm(w, axis=-1, keepdims=True) + eps)
    u = channel_view(update)
    projected = u - w_unit * tf.reduce_sum(w_unit * u, axis=-1, keepdims=True)
    return tf.reshape(tf.where(scale_invariant, projected, u), update.shape)


class Trainer:
    def __init__(self, lr=0.05, beta=0.9):
        self.model = tf.keras.Sequential([tf.keras.layers.Dense(32, activation="relu"), tf.keras.layers.Dense(5)])
        self.model.build((None, 24))
        self.momentum = [tf.Variable(tf.zeros_like(v)) for v in self.model.trainable_variables]
        self.lr = lr
        self.beta = beta

    @tf.function(jit_compile=True)
    def train_step(self, feats, labels):
        with tf.GradientTape() as tape:
            logits = self.model(feats, training=True)
            loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(labels, logits, from_logits=True))
        grads = tape.gradient(loss, self.model.trainable_variables)
        for var, grad, buf in zip(self.model.trainable_variables, grads, self.momentum):
            buf.assign(self.beta * buf + grad)
            var.assign_sub(self.lr * project_update(buf, var, grad))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    feats = tf.reshape(tf.range(16 * 24, dtype=tf.float32), [16, 24]) / 384.0
    labels = tf.constant([0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0])
    return t.train_step, (feats, labels)
