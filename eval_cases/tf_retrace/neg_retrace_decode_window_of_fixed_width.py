"""Decoding with a sliding context window: the compiled next-token function always receives the
last WINDOW tokens of a padded buffer (`tokens[:, t - WINDOW:t]`), so both slice bounds move
together and every call has the same shape: one trace, one compilation.

Near miss for huggingface/transformers#15786 (https://github.com/huggingface/transformers/pull/15786):
a prefix that grows with the step compiles per step; a window of fixed width does not.
"""
import tensorflow as tf

VOCAB = 11
WINDOW = 3
embedding = tf.keras.layers.Embedding(VOCAB, 8)
head = tf.keras.layers.Dense(VOCAB)
head.build((None, 8))


@tf.function(jit_compile=True)
def next_token_logits(context):
    hidden = tf.reduce_mean(embedding(context), axis=1)
    return head(hidden)


def windowed_decode(prompt, max_len):
    batch, prompt_len = prompt.shape
    tokens = tf.pad(prompt, [[0, 0], [0, max_len - prompt_len]])
    for t in range(prompt_len, max_len):
        logits = next_token_logits(tokens[:, t - WINDOW:t])
        next_ids = tf.argmax(logits, axis=-1, output_type=tokens.dtype)
        tokens = tf.tensor_scatter_nd_update(tokens, [[b, t] for b in range(batch)], next_ids)
    return tokens


# --- oracle ---
WRAP = False


def ENTRY():
    return windowed_decode, (tf.constant([[1, 2, 3], [4, 5, 6]]), 5)


def ALT_ARGS():
    return [(tf.constant([[2, 3, 4], [5, 6, 7]]), 6)]
