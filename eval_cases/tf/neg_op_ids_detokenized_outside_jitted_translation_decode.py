"""Source: https://github.com/tensorflow/tensorflow/issues/47683 ("SentencePieceTokenizer.detokenize fails on TPU with No registered 'SentencepieceDetokenizeOp' OpKernel for XLA_TPU_JIT devices"). Documented fix: keep the string work out of the compiled program. The translation model's jit-compiled decode step returns the greedy ids only; the caller detokenizes them eagerly afterwards."""
import tensorflow as tf

PIECES = ["<pad>", "_the", "_cat", "_sat", "_on", "_mat", "</s>"]


class Translator:
    def __init__(self):
        self.vocab = tf.constant(PIECES)
        self.head = tf.keras.layers.Dense(len(PIECES))

    @tf.function(jit_compile=True)
    def decode_ids(self, decoder_states):
        return tf.argmax(self.head(decoder_states), axis=-1)

    def translate(self, decoder_states):
        ids = self.decode_ids(decoder_states)
        text = tf.strings.reduce_join(tf.gather(self.vocab, ids), axis=-1)
        return tf.strings.regex_replace(text, "_", " ")


# --- oracle ---
_KEEP = []


def ENTRY():
    translator = Translator()
    _KEEP.append(translator)
    states = tf.reshape(tf.range(2 * 4 * 5, dtype=tf.float32) / 40.0, [2, 4, 5])
    return translator.translate, (states,)


WRAP = False
