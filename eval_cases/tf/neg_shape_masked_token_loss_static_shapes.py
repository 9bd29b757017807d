"""Source: https://github.com/huggingface/transformers/pull/17973 ("XLA train step fixes": the hf_compute_loss helpers dropped `tf.boolean_mask` for a loss computed over every position and weighted by the label mask, so shapes stay static and the train step compiles)."""
import tensorflow as tf


def masked_token_loss(labels, logits):
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")
    unmasked = loss_fn(tf.nn.relu(labels), logits)
    mask = tf.cast(labels != -100, unmasked.dtype)
    return tf.reduce_sum(unmasked * mask) / tf.maximum(tf.reduce_sum(mask), 1.0)


class Trainer:
    def __init__(self):
        self.embed = tf.keras.layers.Embedding(10, 4)
        self.head = tf.keras.layers.Dense(10)
        self.optimizer = tf.keras.optimizers.SGD(0.1)

    @tf.function(jit_compile=True)
    def train_step(self, input_ids, labels):
        with tf.GradientTape() as tape:
            logits = self.head(self.embed(input_ids))
            loss = masked_token_loss(labels, logits)
        variables = self.embed.trainable_variables + self.head.trainable_variables
        self.optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    ids = tf.constant([[1, 2, 3, 0], [4, 5, 0, 0]])
    labels = tf.constant([[2, 3, -100, -100], [5, -100, -100, -100]])
    return t.train_step, (ids, labels)
