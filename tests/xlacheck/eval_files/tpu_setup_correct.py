"""The same TPU fine-tuning done right: the checklist followed, so no XLA4xx/5xx finding."""
import math
import os

import tensorflow as tf
from transformers import AutoTokenizer, DataCollatorWithPadding, TFAutoModelForSequenceClassification

BUCKET = "gs://my-bucket/glue"


def connect():
    tpu = os.environ.get("TPU_NAME")
    if tpu:
        resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu=tpu)
        tf.config.experimental_connect_to_cluster(resolver)
        tf.tpu.experimental.initialize_tpu_system(resolver)
        return tf.distribute.TPUStrategy(resolver), True
    return tf.distribute.get_strategy(), False


def parse(record):
    features = {"input_ids": tf.io.FixedLenFeature([128], tf.int64), "label": tf.io.FixedLenFeature([], tf.int64)}
    example = tf.io.parse_single_example(record, features)
    return {"input_ids": example["input_ids"]}, example["label"]


def make_dataset(split, batch_size):
    files = tf.io.gfile.glob(f"gs://my-bucket/glue/{split}-*.tfrecord")
    ds = tf.data.TFRecordDataset(files).map(parse, num_parallel_calls=tf.data.AUTOTUNE)
    return ds.shuffle(10_000).repeat().batch(batch_size, drop_remainder=True).prefetch(tf.data.AUTOTUNE)


def build(num_labels):
    return TFAutoModelForSequenceClassification.from_pretrained(BUCKET + "/checkpoint", num_labels=num_labels)


def main():
    strategy, on_tpu = connect()
    tokenizer = AutoTokenizer.from_pretrained("./tokenizer")
    collator = DataCollatorWithPadding(tokenizer, pad_to_multiple_of=64, return_tensors="np")
    batch_size = 32 * strategy.num_replicas_in_sync
    with strategy.scope():
        model = build(num_labels=2)
        schedule = tf.keras.optimizers.schedules.CosineDecay(3e-5, decay_steps=1000)
        model.compile(optimizer=tf.keras.optimizers.Adam(schedule), jit_compile=not on_tpu)
    train = make_dataset("train", batch_size)
    steps = math.ceil(67_000 / batch_size)
    model.fit(train, steps_per_epoch=steps, epochs=2)
    return model, collator


class Trainer:
    def __init__(self, model, on_tpu):
        self.model = model
        self.step = tf.Variable(0, dtype=tf.int64, trainable=False)
        self.mean_loss = tf.keras.metrics.Mean()
        self.train_step = tf.function(self._train_step, jit_compile=not on_tpu)  # XLA is implicit on TPU

    def _train_step(self, x, y, lr):
        self.step.assign_add(1)
        loss = tf.reduce_mean(tf.square(self.model(x) - y)) * lr
        self.mean_loss.update_state(loss)
        return loss

    def fit(self, ds, epochs):
        for epoch in range(epochs):
            lr = tf.constant(0.5 * (1 + math.cos(math.pi * epoch / epochs)))
            for x, y in ds:
                self.train_step(x, y, lr)


if __name__ == "__main__":
    main()
