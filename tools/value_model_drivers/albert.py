"""Driver: transformers' TFAlbertModel from a tiny config, traced under tf.function(jit_compile=True)
(tools/measure_value_model.py runtime --drivers): real code nobody here wrote."""
from _tiny import entry_for
from transformers import AlbertConfig, TFAlbertModel
from transformers.models.albert import modeling_tf_albert

TRACE_FILE = modeling_tf_albert.__file__


def ENTRY():
    config = AlbertConfig(
        vocab_size=64, embedding_size=8, hidden_size=16, num_hidden_layers=2, num_attention_heads=2,
        intermediate_size=32, max_position_embeddings=32
    )
    return entry_for(TFAlbertModel(config))
