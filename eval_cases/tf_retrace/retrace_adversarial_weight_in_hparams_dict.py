"""A GAN generator loss whose adversarial weight lives in a hyperparameter dict that the training
loop rebalances after every epoch; the weight is read out of the dict at the call of the compiled
loss, so each epoch passes a new Python float and the loss traces and compiles again.

Rebuilt from NatLabRockies/sup3r#109 (https://github.com/NatLabRockies/sup3r/pull/109):
"5 out of the last 18 calls to <function Sup3rGan.calc_loss> triggered tf.function retracing"
while the adversarial loss weight was updated during training (test_train_st_weight_update).
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
        for hr_true, hr_gen, disc_out in batches:
            history.append(generator_loss(hr_true, hr_gen, disc_out, hparams["weight_gen_advers"]))  # XLA: retrace
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
