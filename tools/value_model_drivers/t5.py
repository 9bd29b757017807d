"""Driver: transformers' TFT5ForConditionalGeneration from a tiny config, traced under tf.function(jit_compile=True)
(tools/measure_value_model.py runtime --drivers): real code nobody here wrote. Built eagerly first,
so only the forward pass runs inside the trace."""
import tensorflow as tf
from transformers import T5Config, TFT5ForConditionalGeneration
from transformers.models.t5 import modeling_tf_t5

TRACE_FILE = modeling_tf_t5.__file__


def ENTRY():
    config = T5Config(
        vocab_size=64, d_model=16, d_kv=8, d_ff=32, num_layers=2, num_heads=2, decoder_start_token_id=0
    )
    model = TFT5ForConditionalGeneration(config)
    ids = tf.constant([[1, 2, 3, 4, 5, 6, 7, 8], [8, 7, 6, 5, 4, 3, 2, 1]])
    model(ids, decoder_input_ids=ids, training=False)

    def forward(x):
        return model(x, decoder_input_ids=x, training=False)

    return forward, (ids,)
