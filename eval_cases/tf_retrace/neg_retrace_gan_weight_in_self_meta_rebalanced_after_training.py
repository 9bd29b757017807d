"""The GAN trainer of sup3r#109 with the weight update moved out of the epoch loop: the weight is
rebalanced once, after training, so every call of the compiled loss during `train` sees the same
Python float: one trace per `train` call with a given weight.

Near miss for NatLabRockies/sup3r#109 (https://github.com/NatLabRockies/sup3r/pull/109): the
Python float costs a trace per *distinct* value that reaches the loss.
"""
import tensorflow as tf


class GanTrainer:
    def __init__(self):
        self.meta = {"weight_gen_advers": 0.001, "adjust_factor": 1.5}

    @tf.function(jit_compile=True)
    def calc_loss(self, hi_res_true, hi_res_gen, disc_out_gen, weight_gen_advers):
        content = tf.reduce_mean(tf.square(hi_res_true - hi_res_gen))
        advers = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(tf.ones_like(disc_out_gen), disc_out_gen))
        return content + weight_gen_advers * advers

    def update_adversarial_weights(self):
        self.meta["weight_gen_advers"] = self.meta["weight_gen_advers"] * self.meta["adjust_factor"]

    def train(self, batches, epochs):
        losses = []
        for _ in range(epochs):
            for hr_true, hr_gen, disc_out in batches:
                losses.append(self.calc_loss(hr_true, hr_gen, disc_out, self.meta["weight_gen_advers"]))
        return losses


def train_and_rebalance(trainer, batches, epochs):
    losses = trainer.train(batches, epochs)
    trainer.update_adversarial_weights()
    return losses


# --- oracle ---
WRAP = False
_KEEP = []


def _batch(scale):
    hr = tf.reshape(tf.range(8, dtype=tf.float32), [2, 4]) * scale
    return hr, hr * 0.9, tf.constant([[0.3], [-0.2]]) * scale


def ENTRY():
    trainer = GanTrainer()
    _KEEP.append(trainer)
    return trainer.train, ([_batch(1.0)], 2)


def ALT_ARGS():
    return [([_batch(0.5)], 3)]
