"""The adversarial weight is rebalanced after every epoch as before, but the compiled loss receives
it as a tensor: one trace and one compilation, whatever the weight.

Fix for NatLabRockies/sup3r#109 (https://github.com/NatLabRockies/sup3r/pull/109) as the
TensorFlow guide states it ("pass tensors instead of Python literals"): the value changes, the
trace key (a float32 scalar) does not.
"""
import tensorflow as tf


@tf.function(jit_compile=True)
def generator_loss(hi_res_true, hi_res_gen, disc_out_gen, weight_gen_advers):
    content = tf.reduce_mean(tf.square(hi_res_true - hi_res_gen))
    advers = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(tf.ones_like(disc_out_gen), disc_out_gen))
    return content + weight_gen_advers * advers


def train(batches, epochs, adjust=1.5):
    hparams = {"weight_gen_advers": 0.001, "learning_rate": 1e-4}
    history = []
    for _ in range(epochs):
        weight = tf.constant(hparams["weight_gen_advers"], tf.float32)
        for hr_true, hr_gen, disc_out in batches:
            history.append(generator_loss(hr_true, hr_gen, disc_out, weight))
        hparams["weight_gen_advers"] = hparams["weight_gen_advers"] * adjust
    return history


# --- oracle ---
WRAP = False


def _batch(scale):
    hr = tf.reshape(tf.range(8, dtype=tf.float32), [2, 4]) * scale
    return hr, hr * 0.9, tf.constant([[0.3], [-0.2]]) * scale


def ENTRY():
    return train, ([_batch(1.0)], 2)


def ALT_ARGS():
    return [([_batch(0.5)], 3)]
