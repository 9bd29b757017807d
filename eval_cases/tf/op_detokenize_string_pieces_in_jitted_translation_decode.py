"""Source: https://github.com/tensorflow/tensorflow/issues/47683 ("SentencePieceTokenizer.detokenize fails on TPU with No registered 'SentencepieceDetokenizeOp' OpKernel for XLA_TPU_JIT devices": detokenizing inside the TPU-compiled function puts string ops in the XLA program). Here a translation model's jit-compiled decode step picks the greedy ids and detokenizes them in place: a gather from a string vocabulary, `tf.strings.reduce_join` and `tf.strings.regex_replace`."""
import tensorflow as tf

PIECES = ["<pad>", "_the", "_cat", "_sat", "_on", "_mat", "</s>"]


class Translator:
    def __init__(self):
        self.vocab = tf.constant(PIECES)
        self.head = tf.keras.layers.Dense(len(PIECES))

    @tf.function(jit_compile=True)
    def decode(self, decoder_states):
        ids = tf.argmax(self.head(decoder_states), axis=-1)
        pieces = tf.gather(self.vocab, ids)  # XLA: op
        text = tf.strings.reduce_join(pieces, axis=-1)
        return tf.strings.regex_replace(text, "_", " ")


# --- oracle ---
_KEEP = []


def ENTRY():
    translator = Translator()
    _KEEP.append(translator)
    states = tf.reshape(tf.range(2 * 4 * 5, dtype=tf.float32) / 40.0, [2, 4, 5])
    return translator.decode, (states,)

