"""Source: https://github.com/huggingface/transformers/issues/23962 (running the TF XLA generation example wraps a GPT-2 `generate` in `tf.function(jit_compile=True)` and fails with `OperatorNotAllowedInGraphError`: a tensor is used as a Python bool while the function is traced). Here a greedy decoding helper that stops early with `if not bool(tf.reduce_any(unfinished)): break`, jit-compiled."""
import tensorflow as tf


class ToyLM(tf.keras.Model):
    def __init__(self, vocab=10):
        super().__init__()
        self.embed = tf.keras.layers.Embedding(vocab, 6)
        self.out = tf.keras.layers.Dense(vocab)

    def call(self, last_tokens):
        return self.out(self.embed(last_tokens))


def greedy_generate(model, last_tokens, eos_id=0, max_new_tokens=5):
    unfinished = tf.ones_like(last_tokens, dtype=tf.bool)
    outputs = []
    for _ in range(max_new_tokens):
        next_tokens = tf.argmax(model(last_tokens), axis=-1, output_type=tf.int32)
        next_tokens = tf.where(unfinished, next_tokens, eos_id)
        outputs.append(next_tokens)
        unfinished = unfinished & (next_tokens != eos_id)
        if not bool(tf.reduce_any(unfinished)):  # XLA: cond
            break
        last_tokens = next_tokens
    return tf.stack(outputs, axis=1)


# --- oracle ---
def ENTRY():
    model = ToyLM()
    model(tf.constant([1]))
    return (lambda tokens: greedy_generate(model, tokens)), (tf.constant([3, 7]),)
