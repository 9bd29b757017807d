"""Greedy decoding that writes each token into a preallocated buffer (good) but feeds the compiled
next-token function the prefix `tokens[:, :t]`: the argument is one token longer every step, so
each step traces and XLA compiles again.

Rebuilt from huggingface/transformers#15786 (https://github.com/huggingface/transformers/pull/15786),
"TF XLA greedy generation": the eager generate loop fed the model an `input_ids` that grew every
step; the XLA-compilable version keeps a fixed-size buffer *and passes it whole* with the current
position.
"""
import tensorflow as tf

VOCAB = 11
embedding = tf.keras.layers.Embedding(VOCAB, 8)
head = tf.keras.layers.Dense(VOCAB)
head.build((None, 8))


@tf.function(jit_compile=True)
def next_token_logits(prefix):
    hidden = tf.reduce_mean(embedding(prefix), axis=1)
    return head(hidden)


def greedy_decode(prompt, max_len):
    batch, prompt_len = prompt.shape
    tokens = tf.pad(prompt, [[0, 0], [0, max_len - prompt_len]])
    for t in range(prompt_len, max_len):
        logits = next_token_logits(tokens[:, :t])  # XLA: retrace
        next_ids = tf.argmax(logits, axis=-1, output_type=tokens.dtype)
        tokens = tf.tensor_scatter_nd_update(tokens, [[b, t] for b in range(batch)], next_ids)
    return tokens


# --- oracle ---
WRAP = False


def ENTRY():
    return greedy_decode, (tf.constant([[1, 2, 3], [4, 5, 6]]), 5)


def ALT_ARGS():
    return [(tf.constant([[2, 3, 4], [5, 6, 7]]), 6)]
