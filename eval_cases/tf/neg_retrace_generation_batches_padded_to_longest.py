"""Source: https://github.com/huggingface/transformers/pull/18265 (the advice in the docstring: pad every batch of prompts to one fixed size, here a multiple of 8, so the jit-compiled greedy decoder sees a single input shape and compiles once)."""
import tensorflow as tf

MAX_NEW = 3
PAD_TO = 8


class TinyLM(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.embed = tf.keras.layers.Embedding(11, 4)
        self.out = tf.keras.layers.Dense(11)

    def call(self, ids):
        return self.out(tf.reduce_mean(self.embed(ids), axis=1))


class GenerationCallback:
    def __init__(self, model):
        self.model = model
        self.generate = tf.function(self._greedy, jit_compile=True)

    def _greedy(self, ids):
        for _ in range(MAX_NEW):
            nxt = tf.argmax(self.model(ids), axis=-1, output_type=tf.int32)
            ids = tf.concat([ids[:, 1:], nxt[:, None]], axis=1)
        return ids

    def on_epoch_end(self, prompt_batches):
        outputs = []
        for prompts in prompt_batches:
            padded = tf.constant([[0] * (PAD_TO - len(p)) + p for p in prompts], tf.int32)
            outputs.append(self.generate(padded))
        return outputs


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    m = TinyLM()
    m(tf.zeros([1, 2], tf.int32))
    cb = GenerationCallback(m)
    _KEEP.append(cb)
    return cb.on_epoch_end, ([[[1, 2, 3], [4, 5]]],)


def ALT_ARGS():
    return [([[[1, 2], [3, 4, 5, 6, 7]]],)]
