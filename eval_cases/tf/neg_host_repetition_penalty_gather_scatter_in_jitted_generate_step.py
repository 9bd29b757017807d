"""Source: https://github.com/huggingface/transformers/pull/16374 ("TF generate refactor - Beam Search": TF generation was not XLA-ready while the repetition penalty was built with NumPy on the host). Documented fix (the later XLA version of `TFRepetitionPenaltyLogitsProcessor`): gather the logits of the previous ids with `tf.gather(..., batch_dims=1)` and scatter the penalties with `tf.tensor_scatter_nd_update`, all inside the jit-compiled sampling step."""
import tensorflow as tf

VOCAB = 10
BATCH = 2
LENGTH = 5


class RepetitionPenalty:
    def __init__(self, penalty):
        self.penalty = penalty

    def __call__(self, input_ids, logits):
        prev_logits = tf.gather(logits, input_ids, axis=1, batch_dims=1)
        penalties = tf.where(prev_logits < 0, self.penalty, 1.0 / self.penalty)
        rows = tf.repeat(tf.range(BATCH), LENGTH)
        indices = tf.stack([rows, tf.reshape(input_ids, [-1])], axis=1)
        token_penalties = tf.tensor_scatter_nd_update(tf.ones_like(logits), indices, tf.reshape(penalties, [-1]))
        return logits * token_penalties


class ChatSampler:
    def __init__(self):
        self.embed = tf.keras.layers.Embedding(VOCAB, 6)
        self.head = tf.keras.layers.Dense(VOCAB)
        self.penalty = RepetitionPenalty(1.3)

    @tf.function(jit_compile=True)
    def next_token(self, input_ids):
        logits = self.head(tf.reduce_mean(self.embed(input_ids), axis=1))
        logits = self.penalty(input_ids, logits)
        return tf.argmax(logits, axis=-1, output_type=tf.int32)


# --- oracle ---
_KEEP = []


def ENTRY():
    sampler = ChatSampler()
    _KEEP.append(sampler)
    ids = tf.constant([[1, 4, 4, 7, 2], [9, 3, 0, 3, 5]], tf.int32)
    return sampler.next_token, (ids,)

