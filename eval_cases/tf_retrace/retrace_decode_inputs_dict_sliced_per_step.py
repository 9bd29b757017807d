"""A decoding loop that builds the model inputs as a dict each step, slicing `input_ids` and
`attention_mask` of a padded buffer to the current length: the dict's tensors are one position
longer every step, so the compiled forward pass traces and XLA compiles again each step.

Rebuilt from huggingface/transformers#15944 (https://github.com/huggingface/transformers/pull/15944),
"TF generate refactor": `prepare_inputs_for_generation` hands the model a dict of inputs per step,
and the eager generate loop fed it tensors that grew with the generated length (XLA generation
later moved to fixed-size buffers and a position).
"""
import tensorflow as tf

VOCAB = 13
embedding = tf.keras.layers.Embedding(VOCAB, 8)
lm_head = tf.keras.layers.Dense(VOCAB)
lm_head.build((None, 8))


@tf.function(jit_compile=True)
def forward(model_inputs):
    mask = tf.cast(model_inputs["attention_mask"], tf.float32)[..., None]
    hidden = tf.reduce_sum(embedding(model_inputs["input_ids"]) * mask, axis=1) / tf.reduce_sum(mask, axis=1)
    return lm_head(hidden)


def generate(prompt_ids, max_length):
    batch, prompt_len = prompt_ids.shape
    input_ids = tf.pad(prompt_ids, [[0, 0], [0, max_length - prompt_len]])
    attention_mask = tf.pad(tf.ones_like(prompt_ids), [[0, 0], [0, max_length - prompt_len]])
    for cur_len in range(prompt_len, max_length):
        logits = forward({"input_ids": input_ids[:, :cur_len], "attention_mask": attention_mask[:, :cur_len]})  # XLA: retrace
        next_tokens = tf.argmax(logits, axis=-1, output_type=input_ids.dtype)
        updates = [[b, cur_len] for b in range(batch)]
        input_ids = tf.tensor_scatter_nd_update(input_ids, updates, next_tokens)
        attention_mask = tf.tensor_scatter_nd_update(attention_mask, updates, tf.ones_like(next_tokens))
    return input_ids


# --- oracle ---
WRAP = False


def ENTRY():
    return generate, (tf.constant([[1, 2, 3], [4, 5, 6]]), 5)


def ALT_ARGS():
    return [(tf.constant([[2, 3, 4], [5, 6, 7]]), 6)]
