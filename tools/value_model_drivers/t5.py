"""Driver: transformers' TFT5ForConditionalGeneration from a tiny config, traced under tf.function(jit_compile=True)
(tools/measure_value_model.py runtime --drivers): real code nobody here wrote."""
from _tiny import entry_for
from transformers import T5Config, TFT5ForConditionalGeneration
from transformers.models.t5 import modeling_tf_t5

TRACE_FILE = modeling_tf_t5.__file__


def ENTRY():
    config = T5Config(
        vocab_size=64, d_model=16, d_kv=8, d_ff=32, num_layers=2, num_heads=2, decoder_start_token_id=0
    )
    return entry_for(TFT5ForConditionalGeneration(config), decoder_ids=True)
