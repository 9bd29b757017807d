"""Driver: transformers' TFMobileBertModel from a tiny config, traced under tf.function(jit_compile=True)
(tools/measure_value_model.py runtime --drivers): real code nobody here wrote."""
from _tiny import entry_for
from transformers import MobileBertConfig, TFMobileBertModel
from transformers.models.mobilebert import modeling_tf_mobilebert

TRACE_FILE = modeling_tf_mobilebert.__file__


def ENTRY():
    config = MobileBertConfig(
        vocab_size=64, embedding_size=16, hidden_size=16, num_hidden_layers=2, num_attention_heads=2,
        intermediate_size=32, intra_bottleneck_size=8, max_position_embeddings=32
    )
    return entry_for(TFMobileBertModel(config))
