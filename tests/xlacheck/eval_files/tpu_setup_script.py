"""A TPU fine-tuning script as users write it from the TF TPU tutorials (XLA5xx, XLA401/402)."""
import os

import tensorflow as tf
from datasets import load_dataset
from transformers import AutoTokenizer, DataCollatorWithPadding, TFAutoModelForSequenceClassification

resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu=os.environ["TPU_NAME"])
tf.config.experimental_connect_to_cluster(resolver)
tf.tpu.experimental.initialize_tpu_system(resolver)
strategy = tf.distribute.TPUStrategy(resolver)

tokenizer = AutoTokenizer.from_pretrained("./tokenizer")
raw = load_dataset("csv", data_files={"train": "data/train.csv"})  # error: XLA504
collator = DataCollatorWithPadding(tokenizer, return_tensors="np")  # preview: XLA401
train = raw["train"].to_tf_dataset(columns=["input_ids"], label_cols=["label"], batch_size=64,  # error: XLA503
                                   collate_fn=collator)

records = tf.data.TFRecordDataset(tf.io.gfile.glob("gs://bucket/eval-*.tfrecord"))
local = tf.data.TFRecordDataset("eval/extra.tfrecord")  # error: XLA504
eval_ds = records.map(lambda r: tf.io.parse_single_example(r, {"x": tf.io.FixedLenFeature([8], tf.int64)}))
eval_ds = eval_ds.padded_batch(64, padded_shapes={"x": [8]}, drop_remainder=True)

model = TFAutoModelForSequenceClassification.from_pretrained("./checkpoint")  # error: XLA502
with strategy.scope():
    optimizer = tf.keras.optimizers.Adam(3e-5)
    model.compile(optimizer=optimizer, jit_compile=True)  # error: XLA501

model.fit(train, validation_data=eval_ds, epochs=2)
