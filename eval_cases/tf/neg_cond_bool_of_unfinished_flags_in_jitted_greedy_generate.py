"""Source: https://github.com/huggingface/transformers/issues/23962 (the XLA-friendly form of early stopping used by the TF generation code: the decoding loop always runs its fixed number of steps and finished rows keep emitting the end token, so no tensor is turned into a Python bool while tracing). Greedy decoding helper, jit-compiled."""
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
        last_tokens = next_tokens
    return tf.stack(outputs, axis=1)


# --- oracle ---
def ENTRY():
    model = ToyLM()
    model(tf.constant([1]))
    return (lambda tokens: greedy_generate(model, tokens)), (tf.constant([3, 7]),)
