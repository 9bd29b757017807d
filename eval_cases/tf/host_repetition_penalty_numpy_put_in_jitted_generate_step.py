"""Source: https://github.com/huggingface/transformers/pull/16374 ("TF generate refactor - Beam Search": the PR notes the TF generation code is not yet XLA-ready; `TFRepetitionPenaltyLogitsProcessor._create_score_penalties` builds the penalties with NumPy, `np.unique` over `input_ids.numpy()` and `np.put`, on the host). Here a chatbot's jit-compiled sampling step applies a repetition penalty computed that way."""
import numpy as np
import tensorflow as tf

VOCAB = 10


class RepetitionPenalty:
    def __init__(self, penalty):
        self.penalty = penalty

    def _score_penalties(self, input_ids, logits):
        token_penalties = np.ones(logits.shape, dtype=np.float32)
        previous = [np.unique(row) for row in input_ids.numpy()]  # XLA: host
        for i, prev_ids in enumerate(previous):
            prev_logits = logits[i].numpy()[prev_ids]
            np.put(token_penalties[i], prev_ids, np.where(prev_logits < 0, self.penalty, 1.0 / self.penalty))
        return tf.convert_to_tensor(token_penalties)

    def __call__(self, input_ids, logits):
        return logits * self._score_penalties(input_ids, logits)


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

