"""Realistic snippets for the rewrite tests: each flags one line (the ``# flag`` comment) and
states the fix it expects. Shared by test_rewrites.py (text, safety, idempotence; no TensorFlow)
and test_fix_equivalence.py (eager original vs XLA-compiled fix on generated inputs).

A ``# flag: TEXT`` marker points the diagnostic at the first expression whose source is TEXT.
``inputs`` names, per argument, (shape, kind): kind "float", "float_nan" (NaN/inf allowed),
"pos" (>= 0.5), "unit" ([0, 1]), "label" (ids in [-1, 3], -1 = ignore), "label_some" (the same, never all -1), "mask" (0/1 ints), "bool", or a Python
value passed as is.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Example:
    name: str
    source: str
    applicability: str  # "safe" | "unsafe" | "display-only"
    contains: tuple[str, ...] = ()  # substrings of the fixed text
    inputs: tuple = ()
    grad: bool = False  # compare gradients of the (scalar) output w.r.t. float inputs
    rtol: float = 1e-5
    notes: str = ""
    extra: dict = field(default_factory=dict)


EXAMPLES = (
    Example(
        "indicator_halve",
        '''import tensorflow as tf


def damp(t):
    """Halve activations whose total grows too large."""
    if tf.reduce_sum(t) > 10:  # flag
        t = t / 2.0
    return t
''',
        "safe",
        ("t = t / (1.0 + tf.cast(tf.reduce_sum(t) > 10, t.dtype))",),
        inputs=(((4, 3), "float"),),
        grad=True,
    ),
    Example(
        "indicator_augmented_scale",
        '''import tensorflow as tf


def boost_rare(logits, counts):
    n = tf.reduce_min(counts)
    if n < 2.0:  # flag
        logits *= 4.0
    return logits
''',
        "safe",
        ("logits = logits * (1.0 + 3.0 * tf.cast(n < 2.0, logits.dtype))",),
        inputs=(((2, 5), "float_nan"), ((5,), "pos")),
        grad=True,
    ),
    Example(
        "if_else_several_names",
        '''import tensorflow as tf


def adjust(x, y):
    s = tf.reduce_mean(x)
    if s > 0.0:  # flag
        # shrink the positive side
        x = x * 0.5 - 1.0
        y -= 1.0
    else:
        y = y + 2.0
    return x, y
''',
        "safe",
        ("pred = s > 0.0", "x = tf.where(pred, x * 0.5 - 1.0, x)", "y = tf.where(pred, y - 1.0, y + 2.0)",
         "# shrink the positive side"),
        inputs=(((3,), "float_nan"), ((3,), "float_nan")),
        grad=True,
    ),
    Example(
        "closure_accumulator",
        '''import tensorflow as tf


def positive_energy(x):
    energy = tf.constant(0.0)

    def add(row):
        nonlocal energy
        e = tf.reduce_sum(tf.square(row))
        if tf.reduce_mean(row) > 0:  # flag
            energy = energy + e
    for row in tf.unstack(x):
        add(row)
    return energy
''',
        "unsafe",  # gradients only: e = sum(square(row)) gets a zero gradient, NaN at an inf row (0 * inf)
        ("energy = tf.cond(tf.reduce_mean(row) > 0, lambda: energy + e, lambda: energy)",),
        inputs=(((3, 4), "float"),),
        grad=True,
    ),
    Example(
        "closure_sum_accumulator",
        '''import tensorflow as tf


def positive_row_total(x):
    total = tf.constant(0.0)

    def accumulate(row):
        nonlocal total
        s = tf.reduce_sum(row)
        if s > 0:  # flag
            total = total + s
    for row in tf.unstack(x):
        accumulate(row)
    return total
''',
        "safe",  # total is read by both branches (its real gradient plus an exact zero); s is linear
        ("total = tf.where(s > 0, total + s, total)",),
        inputs=(((3, 4), "float_nan"),),
        grad=True,
    ),
    Example(
        "ternary_nonlinear_branch",
        '''import tensorflow as tf


def soft_floor(x):
    return tf.square(x) if tf.reduce_sum(x) < 0.0 else x  # flag
''',
        "safe",  # tf.where would differentiate tf.square at an untaken inf: 0 * inf = NaN. (A
        # reduce_max condition would not do here: XLA's max of an all-NaN vector is not NaN, so
        # the condition itself differs from eager, whatever the fix.)
        ("return tf.cond(tf.reduce_sum(x) < 0.0, lambda: tf.square(x), lambda: x)",),
        inputs=(((3,), "float_nan"),),
        grad=True,
    ),
    Example(
        "return_branches_cond",
        '''import tensorflow as tf


def robust_loss(err):
    scale = tf.reduce_mean(tf.abs(err))
    if scale > 1.0:  # flag
        return tf.reduce_mean(tf.math.log1p(tf.abs(err)))
    return tf.reduce_mean(tf.square(err))
''',
        "safe",
        ("return tf.cond(scale > 1.0, lambda: tf.reduce_mean(tf.math.log1p(tf.abs(err))), "
         "lambda: tf.reduce_mean(tf.square(err)))",),
        inputs=(((6,), "float_nan"),),
        grad=True,
    ),
    Example(
        "ternary_membership",
        '''import tensorflow as tf

SPECIAL_IDS = (0, 1, 2)


def token_weight(token_id):
    return 0.0 if token_id in SPECIAL_IDS else 1.0  # flag


def mean_content_loss(token_ids, token_losses):
    weights = tf.stack([token_weight(t) for t in tf.unstack(token_ids)])
    return tf.reduce_sum(token_losses * weights) / tf.reduce_sum(weights)
''',
        "unsafe",  # token_id comes from tf.unstack: not provably a scalar
        ("tf.where(tf.reduce_any(tf.equal(token_id, SPECIAL_IDS)), 0.0, 1.0)",),
        inputs=(((6,), "label"), ((6,), "pos")),
        extra={"entry": "mean_content_loss"},
    ),
    Example(
        "membership_in_condition",
        '''import tensorflow as tf

PAD_IDS = (0, 3)


def count_content(ids):
    total = tf.constant(0.0)
    for t in tf.unstack(ids):
        if t not in PAD_IDS:  # flag
            total = total + 1.0
    return total
''',
        "unsafe",
        ("total = tf.where(tf.logical_not(tf.reduce_any(tf.equal(t, PAD_IDS))), total + 1.0, total)",),
        inputs=(((5,), "label"),),
    ),
    Example(
        "min_warmup",
        '''import tensorflow as tf


def warmup_lr(step, base_lr=0.1, warmup=100.0):
    return min(base_lr * (step + 1.0) / warmup, base_lr)  # flag
''',
        "unsafe",  # base_lr is a Python number: min() may return it, the fix returns a tensor
        ("tf.where(base_lr < (base_lr * (step + 1.0) / warmup), base_lr, base_lr * (step + 1.0) / warmup)",),
        inputs=(((), "step"),),
    ),
    Example(
        "min_of_two_means",
        '''import tensorflow as tf


def tighter_bound(a, b):
    mean_a = tf.reduce_mean(a)
    half_b = tf.reduce_sum(b) / 2.0
    return min(mean_a, half_b) * 2.0  # flag: min(mean_a, half_b)
''',
        "safe",
        ("return tf.where(half_b < mean_a, half_b, mean_a) * 2.0",),
        inputs=(((3,), "tie"), ((3,), "tie")),  # ties, NaN and inf: Python keeps the first argument
        grad=True,
    ),
    Example(
        "min_log_argument",
        '''import tensorflow as tf


def capped_log_likelihood(p, cap):
    ll = tf.reduce_sum(tf.math.log(p))
    limit = tf.reduce_sum(cap)
    return min(ll, limit)  # flag
''',
        "unsafe",  # gradients only: log's derivative at 0 is inf, 0 * inf = NaN through tf.where
        ("return tf.where(limit < ll, limit, ll)",),
        inputs=(((3,), "tie"), ((2,), "tie")),  # values are exact, NaN and ties included
    ),
    Example(
        "max_of_list",
        '''import tensorflow as tf


def worst_member(preds, target):
    losses = [tf.reduce_mean(tf.square(p - target)) for p in tf.unstack(preds)]
    return max(losses)  # flag
''',
        "unsafe",
        ("tf.reduce_max(losses)",),
        inputs=(((3, 2), "float"), ((2,), "float")),  # values only: on ties the gradient is split
    ),
    Example(
        "max_of_two_losses",
        '''import tensorflow as tf


def worst_of_two(pred, target):
    l1 = tf.reduce_mean(tf.abs(pred - target))
    l2 = tf.reduce_mean(tf.square(pred - target))
    return max(l1, l2)  # flag
''',
        "unsafe",  # gradients only: d square / dx is inf at inf, and 0 * inf = NaN through tf.where
        ("return tf.where(l2 > l1, l2, l1)",),
        inputs=(((4,), "float"), ((4,), "float")),
        grad=True,  # ties go to the first argument in both
    ),
    Example(
        "sorted_best_two",
        '''import tensorflow as tf


def best_two(preds, target):
    losses = [tf.reduce_mean(tf.abs(p - target)) for p in tf.unstack(preds)]
    best = sorted(losses)[:2]  # flag
    return (best[0] + best[1]) / 2.0
''',
        "unsafe",
        ("best = tf.sort(losses)[:2]",),
        inputs=(((4, 2), "float"), ((2,), "float")),
    ),
    Example(
        "any_generator",
        '''import tensorflow as tf


def any_row_exploded(x):
    return any(tf.reduce_max(tf.abs(r)) > 2.0 for r in tf.unstack(x))  # flag
''',
        "safe",
        ("tf.reduce_any(tf.cast([tf.reduce_max(tf.abs(r)) > 2.0 for r in tf.unstack(x)], tf.bool))",),
        inputs=(((3, 2), "float_nan"),),
    ),
    Example(
        "masked_loss_sparse_ce",
        '''import tensorflow as tf


def token_loss(labels, logits):
    """Cross-entropy over the labelled tokens only (-1 = ignore)."""
    loss = tf.reduce_mean(  # flag
        tf.nn.sparse_softmax_cross_entropy_with_logits(
            labels=labels[labels >= 0],
            logits=logits[labels >= 0],  # keep the vocabulary axis
        )
    )
    return loss
''',
        "safe",
        ("mask = labels >= 0", "labels=tf.where(mask, labels, 0)", "# keep the vocabulary axis",
         "logits=tf.where(tf.expand_dims(mask, -1), logits, 0)",
         "tf.reduce_sum(masked_values) / tf.reduce_sum(tf.cast(mask, masked_values.dtype))"),
        inputs=(((2, 3), "label"), ((2, 3, 4), "float_nan")),
        grad=True,
        rtol=1e-4,
    ),
    Example(
        "masked_sum_with_nan_padding",
        '''import tensorflow as tf


def valid_total(values, valid):
    kept = tf.boolean_mask(values, valid)
    return tf.reduce_sum(kept)  # flag
''',
        "unsafe",
        ("tf.reduce_sum(tf.where(tf.cast(valid, tf.bool), values, 0))",),
        inputs=(((6,), "float_nan"), ((6,), "bool")),
        grad=True,
        rtol=1e-4,
    ),
    Example(
        "masked_max",
        '''import tensorflow as tf


def peak_positive(x):
    return tf.reduce_max(x[x > 0.0])  # flag
''',
        "safe",
        ('tf.reduce_max(tf.where(x > 0.0, x, float("-inf")))',),
        inputs=(((7,), "float"),),
    ),
    Example(
        "masked_mean_of_unknown_dtype",
        '''import tensorflow as tf


def mean_positive_count(counts):
    return tf.reduce_mean(counts[counts > 0])  # flag
''',
        "unsafe",  # an int32 `counts` gives a truncated int mean in the original, a float64 in the fix
        ("tf.reduce_sum(masked_values) / tf.reduce_sum(tf.cast(mask, masked_values.dtype))",),
        inputs=(((6,), "float"),),  # the stated reason left out: float counts
    ),
    Example(
        "masked_max_of_unknown_dtype",
        '''import tensorflow as tf


def largest_positive_id(ids):
    return tf.reduce_max(ids[ids > 0])  # flag
''',
        "unsafe",  # integer ids: tf.where(m, ids, float("-inf")) raises
        ('tf.reduce_max(tf.where(ids > 0, ids, float("-inf")))',),
        inputs=(((6,), "float"),),
    ),
    Example(
        "masked_cumsum",
        '''import tensorflow as tf


def running_reward(rewards, done):
    alive = rewards[done < 1]
    return tf.cumsum(alive, reverse=True)  # flag
''',
        "safe",
        ("    mask = done < 1\n    rewards.shape[:mask.shape.rank].assert_is_compatible_with(mask.shape.with_rank_at_least(1))\n",
         "flat_values = tf.reshape(tf.where(mask[(...,) + (tf.newaxis,) * (rewards.shape.rank - mask.shape.rank)], "
         "rewards, 0), tf.concat([[-1], tf.shape(rewards)[mask.shape.rank:]], 0))",
         "return tf.boolean_mask(tf.cumsum(flat_values, reverse=True), flat_mask)"),
        inputs=(((6,), "float_nan"), ((6,), "mask")),
        grad=True,
        rtol=1e-4,
    ),
    Example(
        "masked_row_cumprod",
        '''import tensorflow as tf


def growth_of_kept_rows(factors, keep):
    rows = tf.boolean_mask(factors, keep > 0)
    return tf.math.cumprod(rows, exclusive=True)  # flag
''',
        "unsafe",  # gradients only: cumprod's gradient is NaN at an inf next to a masked-out row
        ("return tf.boolean_mask(tf.math.cumprod(flat_values, exclusive=True), flat_mask)",),
        inputs=(((4, 3), "float"), ((4,), "mask")),  # a rank-1 mask over rows: the scan runs over kept rows
        grad=True,
        rtol=1e-4,
    ),
    Example(
        "masked_cumsum_2d_mask",
        '''import tensorflow as tf


def running_positive_total(x):
    return tf.cumsum(x[x > 0.0])  # flag
''',
        "safe",  # a rank-2 mask: the selection is row-major over both axes
        ("flat_mask = tf.reshape(mask, [-1])",),
        inputs=(((3, 4), "float_nan"),),
        grad=True,
        rtol=1e-4,
    ),
    Example(
        "where_gather_last",
        '''import tensorflow as tf


def last_valid_state(states, keep):
    positions = tf.where(keep > 0)[:, 0]
    valid = tf.gather(states, positions)
    return valid[-1]  # flag
''',
        "safe",  # the rows of the true entries, for every mask rank; nothing selected raises in both
        ("rows = tf.where(flat_mask, tf.range(tf.size(mask)) // tf.maximum(tf.reduce_prod(tf.shape(mask)[1:]), 1), "
         "tf.shape(states)[0])",
         "return tf.gather(flat_values, tf.reduce_max(tf.where(flat_mask, tf.range(tf.size(flat_mask)), -1)))"),
        inputs=(((5, 2), "float_nan"), ((5,), "mask")),
        grad=True,
    ),
    Example(
        "masked_last_valid_token",
        '''import tensorflow as tf


def last_token_state(hidden, attention_mask):
    """Hidden state of the last real token of a packed batch (row-major over batch and time)."""
    valid = hidden[attention_mask > 0]
    return valid[-1]  # flag
''',
        "safe",  # a rank-2 mask over [batch, time]: positions are counted in the flattened mask
        ("    mask = attention_mask > 0\n"
         "    hidden.shape[:mask.shape.rank].assert_is_compatible_with(mask.shape.with_rank_at_least(1))\n"
         "    flat_mask = tf.reshape(mask, [-1])\n"
         "    flat_values = tf.reshape(hidden, tf.concat([[-1], tf.shape(hidden)[mask.shape.rank:]], 0))\n"
         "    return tf.gather(flat_values, tf.reduce_max(tf.where(flat_mask, tf.range(tf.size(flat_mask)), -1)))",),
        inputs=(((2, 3, 4), "float_nan"), ((2, 3), "mask")),
        grad=True,
    ),
    Example(
        "masked_index_and_tail",
        '''import tensorflow as tf


def second_and_tail(x, weights):
    picked = x[weights > 0.5]
    return picked[1], picked[-2:]  # flag
''',
        "safe",  # one flattening shared by both consumers; too few picked entries raise in both
        ("return tf.gather(flat_values, tf.reduce_max(tf.where(tf.logical_and(flat_mask, "
         "tf.cumsum(tf.cast(flat_mask, tf.int32)) == 2), tf.range(tf.size(flat_mask)), -1))), "
         "tf.boolean_mask(flat_values, tf.logical_and(flat_mask, tf.cumsum(tf.cast(flat_mask, tf.int32), "
         "reverse=True) <= 2))",),
        inputs=(((6,), "float_nan"), ((6,), "unit")),
        grad=True,
    ),
    Example(
        "where_gather_cumsum",
        '''import tensorflow as tf


def discounted_returns(rewards, valid):
    """Reward-to-go over the valid steps only."""
    idx = tf.where(valid > 0)[:, 0]
    selected = tf.gather(rewards, idx)
    return tf.math.cumsum(selected, reverse=True)  # flag
''',
        "safe",
        ("# the row each mask entry reads; masked-out entries read an extra row of 0s",
         "flat_values = tf.gather(tf.pad(rewards, [[0, 1]] + [[0, 0]] * (rewards.shape.rank - 1)), rows)",
         "return tf.boolean_mask(tf.math.cumsum(flat_values, reverse=True), flat_mask)"),
        inputs=(((6,), "float_nan"), ((6,), "mask")),
        grad=True,
        rtol=1e-4,
    ),
    Example(
        "where_gather_cumsum_2d_mask",
        '''import tensorflow as tf


def team_returns(step_rewards, alive):
    """Running reward per live (step, agent) pair: a step's reward counts once per live agent."""
    idx = tf.where(alive)[:, 0]
    return tf.cumsum(tf.gather(step_rewards, idx), exclusive=True)  # flag
''',
        "safe",  # alive is [steps, agents], step_rewards [steps, 2]: tf.where(alive)[:, 0] repeats rows
        ("tf.cast(alive, tf.bool)", "return tf.boolean_mask(tf.cumsum(flat_values, exclusive=True), flat_mask)"),
        inputs=(((3, 2), "float_nan"), ((3, 4), "mask")),
        grad=True,
        rtol=1e-4,
    ),
    Example(
        "ragged_mean_pool",
        '''import tensorflow as tf


def mean_pool(hidden, attention_mask):
    tokens = tf.ragged.boolean_mask(hidden, tf.cast(attention_mask, tf.bool))
    return tf.reduce_mean(tokens, axis=1)  # flag
''',
        "unsafe",
        ("tf.reduce_sum(masked_values, axis=1) / tf.reduce_sum(tf.cast(mask, masked_values.dtype), axis=1)",),
        inputs=(((2, 4, 3), "float"), ((2, 4), "mask")),
        rtol=1e-4,
    ),
    Example(
        "prefix_sum_in_loop",
        '''import tensorflow as tf


def triangular_energy(x):
    total = tf.constant(0.0)
    for i in tf.range(tf.shape(x)[0]):
        head = tf.range(i + 1)  # flag
        total += tf.reduce_sum(tf.abs(tf.gather(x, head)))
    return total
''',
        "safe",
        ("mask = tf.sequence_mask(i + 1, tf.shape(x, out_type=tf.int64)[0])[(...,) + (tf.newaxis,) * (x.shape.rank - 1)]",
         "masked_values = tf.where(mask, tf.abs(tf.where(mask, x, 0)), 0)",
         "total += tf.reduce_sum(masked_values)"),
        inputs=(((5,), "float_nan"),),
        grad=True,
        rtol=1e-4,
    ),
    Example(
        "log_likelihood_of_first_rows",
        '''import tensorflow as tf


def head_log_likelihood(probs, n):
    """Log-likelihood of the first n decoded steps (probs: [steps, beams])."""
    head = tf.gather(probs, tf.range(n))
    return tf.reduce_sum(tf.math.log(head))  # flag
''',
        "safe",  # log(0) = -inf at a masked-out row: the inner tf.where keeps its NaN gradient from x
        ("masked_values = tf.where(mask, tf.math.log(tf.where(mask, probs, 0)), 0)",),
        inputs=(((4, 3), "unit"), ((), "level")),
        grad=True,
        rtol=1e-4,
    ),
    Example(
        "bincount_class_weights",
        '''import tensorflow as tf

NUM_CLASSES = 4


def class_frequencies(labels):
    counts = tf.math.bincount(labels, minlength=NUM_CLASSES, maxlength=NUM_CLASSES)  # flag
    return tf.cast(counts, tf.float32) / tf.cast(tf.size(labels), tf.float32)
''',
        "safe",  # negative labels raise in bincount (skipped draws); labels >= 4 are dropped by both
        ("tf.reduce_sum(tf.one_hot(tf.reshape(tf.cast(labels, tf.int64), [-1]), NUM_CLASSES, dtype=tf.int32), "
         "axis=0)",),
        inputs=(((7,), "bin"),),
    ),
    Example(
        "bincount_float_histogram_2d",
        '''import tensorflow as tf


def token_histogram(token_ids):
    """Per-batch histogram of the first three token ids, as float weights."""
    return tf.math.bincount(token_ids, minlength=3, maxlength=3, dtype=tf.float32)  # flag
''',
        "safe",
        ("tf.reduce_sum(tf.one_hot(tf.reshape(tf.cast(token_ids, tf.int64), [-1]), 3, dtype=tf.float32), axis=0)",),
        inputs=(((2, 4), "bin"),),
    ),
    Example(
        "bincount_depth_argument",
        '''import tensorflow as tf


def histogram(ids, bins):
    return tf.math.bincount(ids, minlength=bins, maxlength=bins)  # flag
''',
        "unsafe",  # bins could be an int64 tensor, which bincount accepts with int64 ids and one_hot rejects
        ("tf.one_hot(tf.reshape(tf.cast(ids, tf.int64), [-1]), bins, dtype=tf.int32)",),
        inputs=(((6,), "bin"), ((), 4)),
    ),
    Example(
        "bincount_weighted_shape_length",
        '''import tensorflow as tf


def update_gt_counts(gt_counts, gt_classes):
    """Per-class counts of the valid (>= 0) ground-truth boxes, added to running totals."""
    num_classes = tf.shape(gt_counts)[0]
    valid = tf.cast(gt_classes >= 0, tf.int32)
    counts = tf.math.bincount(tf.maximum(gt_classes, 0), weights=valid,  # flag
                              minlength=num_classes, maxlength=num_classes)
    return gt_counts + counts
''',
        "safe",  # integer weights: the same sums; num_classes is an int32 shape, one_hot-free
        ("tf.math.unsorted_segment_sum(tf.reshape(valid, [-1]), tf.minimum(tf.reshape(tf.cast(tf.maximum("
         "gt_classes, 0), tf.int64), [-1]), tf.cast(num_classes, tf.int64)), tf.cast(num_classes, tf.int64) + 1)"
         "[:num_classes]",),
        inputs=(((4,), "mask"), ((7,), "bin")),
    ),
    Example(
        "bincount_float_weights",
        '''import tensorflow as tf


def weighted_histogram(ids, weights):
    return tf.math.bincount(ids, weights=weights, minlength=3, maxlength=3)  # flag
''',
        "unsafe",  # float weights summed in another order: the last bits may differ (rtol)
        ("tf.math.unsorted_segment_sum(tf.reshape(weights, [-1]), tf.minimum(tf.reshape(tf.cast(ids, tf.int64), "
         "[-1]), 3), 3 + 1)[:3]",),
        inputs=(((2, 3), "bin"), ((2, 3), "float_nan")),
    ),
    Example(
        "bincount_shape_length",
        '''import tensorflow as tf


def histogram(ids, scores):
    return tf.math.bincount(ids, minlength=tf.shape(scores)[0], maxlength=tf.shape(scores)[0])  # flag
''',
        "safe",
        ("tf.reduce_sum(tf.one_hot(tf.reshape(tf.cast(ids, tf.int64), [-1]), tf.shape(scores)[0], "
         "dtype=tf.int32), axis=0)",),
        inputs=(((6,), "bin"), ((4,), "float")),
    ),
    Example(
        "bincount_maxlength_bound",
        '''import tensorflow as tf


def counted_below_three(ids):
    counts = tf.math.bincount(ids, minlength=2, maxlength=3)  # flag
    return tf.reduce_sum(counts)
''',
        "unsafe",  # 3 bins always, where the original has 2 or 3: the total is the same
        ("tf.reduce_sum(tf.one_hot(tf.reshape(tf.cast(ids, tf.int64), [-1]), 3, dtype=tf.int32), axis=0)",),
        inputs=(((5,), "bin"),),
    ),
    Example(
        "range_list_stack_to_tensorarray",
        '''import tensorflow as tf


def per_step_energy(x):
    """Energy of each time step of x [batch, time, features]: [batch, time]."""
    energies = []
    steps = tf.shape(x)[1]
    for t in tf.range(steps):
        frame = x[:, t]
        energies.append(tf.reduce_sum(frame * frame, axis=-1))  # flag
    return tf.stack(energies, axis=1)
''',
        "safe",  # the dtype is x's (indexing, elementwise product, sum); axis 1: zero steps raise in the original
        ("energies = tf.TensorArray(x.dtype, size=tf.maximum(steps, 0))",
         "energies = energies.write(t, tf.reduce_sum(frame * frame, axis=-1))  # flag",
         "tf.experimental.numpy.moveaxis(energies.stack(), 0, 1)"),
        inputs=(((2, 3, 4), "float_nan"),),
        grad=True,
    ),
    Example(
        "range_list_add_n_any_bound",
        '''import tensorflow as tf


def sum_of_steps(num_iter, scale):
    """Sum of i * scale over i < num_iter, a list summed by tf.add_n."""
    digit_list = []
    for i in tf.range(num_iter):
        digit_list.append(tf.cast(i, tf.float32) * scale)  # flag
    return tf.add_n(digit_list)
''',
        "safe",  # the float32 product fixes the dtype; no steps: add_n([]) raises in the original
        ("digit_list = tf.TensorArray(tf.float32, size=tf.size(tf.range(num_iter)))",
         "digit_list = digit_list.write(tf.cast(i, tf.int32), tf.cast(i, tf.float32) * scale)  # flag",
         "return tf.reduce_sum(digit_list.stack(), axis=0)"),
        inputs=(((), "count"), ((3,), "float")),
        grad=True,
    ),
    Example(
        "range_list_concat_to_tensorarray",
        '''import tensorflow as tf


def outer_products(inputs):
    """Per-example outer products, flattened: [batch, features**2] (keras-team/keras#15360)."""
    outer = []
    batch_size = tf.shape(inputs)[0]
    for batch in tf.range(batch_size):
        row = inputs[batch]
        outer.append(tf.reshape(row[:, None] * row[None, :], [1, -1]))  # flag
    return tf.concat(outer, axis=0)
''',
        "unsafe",  # tf.concat joins rows of different lengths, the TensorArray raises: here all rows are alike
        ("outer = tf.TensorArray(inputs.dtype, size=tf.maximum(batch_size, 0))", "return outer.concat()"),
        inputs=(((3, 4), "float_nan"),),
        grad=True,
    ),
    Example(
        "repeat_then_mean_over_axis",
        '''import tensorflow as tf


def oversample(features, weights):
    """Mean of the features with each row repeated round(3 * weight) times (tensorflow#52905)."""
    counts = tf.cast(tf.round(weights * 3.0), tf.int32)
    expanded = tf.repeat(features, counts, axis=0)  # flag
    return tf.reduce_mean(expanded, axis=0)
''',
        "unsafe",  # float rounding of x * c; all counts 0: NaN in both (0 / 0)
        ("expanded_weights = tf.reshape(tf.cast(counts, features.dtype), [-1] + [1] * (len(features.shape) - 1))",
         "tf.reduce_sum(tf.where(expanded_weights > 0, features * expanded_weights, 0), axis=0) / "
         "tf.reduce_sum(expanded_weights * tf.ones_like(features), axis=0)"),
        inputs=(((4, 3), "float_nan"), ((4,), "unit")),
        grad=True,
        rtol=1e-4,
    ),
    Example(
        "repeat_then_sum_integers",
        '''import tensorflow as tf


def token_totals(ids, counts):
    ids = tf.cast(ids, tf.int32)
    repeated = tf.repeat(ids, counts, axis=-1)  # flag
    return tf.reduce_sum(repeated, axis=-1)
''',
        "safe",  # integer x * c is exactly the sum of c copies
        ("repeated_weights = tf.reshape(tf.cast(counts, ids.dtype), [-1] + [1] * (0))",
         "tf.reduce_sum(tf.where(repeated_weights > 0, ids * repeated_weights, 0), axis=-1)"),
        inputs=(((2, 3), "label"), ((3,), "level")),
    ),
    Example(
        "one_hot_depth_from_data_summed_over_classes",
        '''import tensorflow as tf


def labelled_per_row(ids):
    """How many ids of each row are valid classes, with the class count read from the batch."""
    n = tf.reduce_max(ids) + 1
    y = tf.one_hot(ids, n)  # flag(XLA205): tf.one_hot(ids, n)
    return tf.reduce_sum(y, axis=-1)
''',
        "unsafe",  # float sums in another order (exact here: sums of 0/1 below 2**24)
        ("y = tf.cast((tf.cast(ids, tf.int64) >= 0) & (tf.cast(ids, tf.int64) < tf.cast(n, tf.int64)), "
         "tf.float32)[..., None]", "return tf.reduce_sum(y, axis=-1)"),
        inputs=(((3, 4), "label"),),
    ),
    Example(
        "one_hot_depth_from_data_axes_by_rank",
        '''import tensorflow as tf


def valid_per_example(ids, table):
    depth = tf.shape(table)[0] + tf.reduce_min(ids)
    y = tf.one_hot(ids, depth, dtype=tf.int32)  # flag(XLA205): tf.one_hot(ids, depth, dtype=tf.int32)
    return tf.reduce_sum(y, axis=[1, 2])
''',
        "safe",  # integer sums; ids of rank 2: the one-hot axis is axis 2, summed
        ("y = (tf.cast((tf.cast(ids, tf.int64) >= 0) & (tf.cast(ids, tf.int64) < tf.cast(depth, tf.int64)), "
         "tf.int32)[..., None] if tf.get_static_value(tf.rank(ids)) in (1, 2) "
         "else tf.one_hot(ids, depth, dtype=tf.int32))",),
        inputs=(((2, 3), "label"), ((3,), "float")),
    ),
    Example(
        "segment_sum_two_dimensional_ids_summed_with_every_axis",
        '''import tensorflow as tf


def routed_mass(tokens, experts):
    """Total mass routed to the experts named in the batch: ids [batch, seq], tokens [batch, seq, dim]."""
    n = tf.reduce_max(experts) + 1
    routed = tf.math.unsorted_segment_sum(tokens, experts, n)  # flag(XLA205): tf.math...
    return tf.reduce_sum(routed)
''',
        "unsafe",  # float sums in another order
        ("routed = tf.math.unsorted_segment_sum(tokens, tf.where(", "return tf.reduce_sum(routed)"),
        inputs=(((2, 3, 2), "float_nan"), ((2, 3), "label")),
        grad=True,
        rtol=1e-4,
    ),
    Example(
        "one_hot_depth_from_data_rank_one_ids",
        '''import tensorflow as tf


def labelled(ids, scores):
    depth = tf.cast(tf.reduce_max(scores), tf.int32) + 2
    y = tf.one_hot(ids, depth, dtype=tf.int64)  # flag(XLA205): tf.one_hot(ids, depth, dtype=tf.int64)
    return tf.reduce_sum(y, axis=1, keepdims=True)
''',
        "safe",  # integer sums; ids of rank 1: the one-hot axis is axis 1
        ("if tf.get_static_value(tf.rank(ids)) == 1 else tf.one_hot(ids, depth, dtype=tf.int64))",),
        inputs=(((5,), "label"), ((3,), "unit")),
    ),
    Example(
        "one_hot_depth_from_data_read_twice_is_explained",
        '''import tensorflow as tf


def class_shares(ids):
    n = tf.reduce_max(ids) + 1
    y = tf.one_hot(ids, n)  # flag(XLA205): tf.one_hot(ids, n)
    return tf.reduce_sum(y, axis=-1), tf.reduce_mean(y, axis=0)
''',
        "display-only",  # the second reader keeps the data-sized axis: no static form returns it
    ),
    Example(
        "segment_sum_kept_segments_is_explained",
        '''import tensorflow as tf


def per_segment(features, ids):
    n = tf.reduce_max(ids) + 1
    y = tf.math.unsorted_segment_sum(features, ids, n)  # flag(XLA205): tf.math.unsorted_segment_sum(features, ids, n)
    return tf.reduce_sum(y, axis=1)
''',
        "display-only",  # the segment axis survives the sum: the output shape depends on the data
    ),
    Example(
        "segment_sum_count_from_data_summed_over_segments",
        '''import tensorflow as tf


def pooled_total(features, ids):
    """Total of the per-segment sums, the segment count read from the ids."""
    n = tf.reduce_max(ids) + 1
    per_segment = tf.math.unsorted_segment_sum(features, ids, num_segments=n)  # flag(XLA205): tf.math...
    return tf.reduce_sum(per_segment, axis=0)
''',
        "unsafe",  # float sums in another order
        ("per_segment = tf.math.unsorted_segment_sum(features, tf.where((tf.cast(ids, tf.int64) >= 0) & "
         "(tf.cast(ids, tf.int64) < tf.cast(n, tf.int64)), 0, -1), 1)",),
        inputs=(((4, 3), "float_nan"), ((4,), "label")),
        grad=True,
        rtol=1e-4,
    ),
    Example(
        "frame_length_from_data_summed_over_frames",
        '''import tensorflow as tf


def framed_energy(signal, lengths):
    """Total of every frame's samples, the frame length read from the batch."""
    n = tf.reduce_max(lengths)
    frames = tf.signal.frame(signal, n, 2)  # flag(XLA205): tf.signal.frame(signal, n, 2)
    return tf.reduce_sum(frames, axis=[-2, -1])
''',
        "unsafe",  # float sums in another order, and c copies of a sample become one product
        ("frames_positions = tf.range(tf.shape(signal, out_type=tf.int64)[-1])",
         "frames = tf.reduce_sum(tf.where(frames_frames_per_sample > 0, signal * tf.cast(frames_frames_per_sample, "
         "signal.dtype), tf.zeros_like(signal)), axis=-1, keepdims=True)[..., None]"),
        inputs=(((2, 4), "float_nan"), ((3,), "count")),  # frame lengths <= 0 (the original raises), 1..5 > 4
        grad=True,
        rtol=1e-4,
    ),
    Example(
        "frame_integers_step_from_argument_axes_by_rank",
        '''import tensorflow as tf


def window_totals(tokens, hop, lengths):
    tokens = tf.cast(tokens, tf.int32)
    n = tf.reduce_min(lengths) + 1
    windows = tf.signal.frame(tokens, n, hop)  # flag(XLA205): tf.signal.frame(tokens, n, hop)
    return tf.reduce_sum(windows, axis=[2, 3], keepdims=True)
''',
        "safe",  # integer sums and products are exact; a rank-3 signal frames into axes 2 and 3
        ("(tf.size(windows_positions, out_type=tf.int64) - tf.cast(n, tf.int64)) // tf.cast(hop, tf.int64)",
         "if tf.get_static_value(tf.rank(tokens)) == 3 else tf.signal.frame(tokens, n, hop))"),
        inputs=(((2, 3, 6), "label"), ((), "count"), ((2,), "count")),
    ),
    Example(
        "frame_kept_frames_is_explained",
        '''import tensorflow as tf


def frame_energies(signal, lengths):
    n = tf.reduce_max(lengths)
    frames = tf.signal.frame(signal, n, 2)  # flag(XLA205): tf.signal.frame(signal, n, 2)
    return tf.reduce_sum(frames, axis=-1)
''',
        "display-only",  # one energy per frame: the number of frames, the output's length, depends on the data
    ),
    Example(
        "segment_sum_integers_count_from_argument",
        '''import tensorflow as tf


def tokens_in_segments(counts, ids, n):
    counts = tf.cast(counts, tf.int32)
    per_segment = tf.math.unsorted_segment_sum(counts, ids, n)  # flag(XLA205): tf.math...
    return tf.reduce_sum(per_segment, axis=[0, 1], keepdims=True)
''',
        "safe",  # integer sums are exact in any order; ids >= n raise in the original
        ("per_segment = tf.math.unsorted_segment_sum(counts, tf.where(",
         "return tf.reduce_sum(per_segment, axis=[0, 1], keepdims=True)"),
        inputs=(((2, 3, 2), "label"), ((2, 3), "label"), ((), "count_positive")),
    ),
    Example(
        "cond_functions_dependent_statements",
        '''import tensorflow as tf


def gated(x):
    if tf.reduce_sum(x) > 0:  # flag
        h = tf.nn.relu(x)
        y = h * 2.0
    else:
        y = -x
    return y
''',
        "safe",  # only the taken branch runs; h is the branch's own temporary
        ("def true_branch():", "y = tf.cond(tf.reduce_sum(x) > 0, lambda: true_branch(), lambda: false_branch())"),
        inputs=(((2, 3), "float_nan"),),
        grad=True,
    ),
    Example(
        "cond_functions_swap",
        '''import tensorflow as tf


def ordered(a, b):
    if tf.reduce_mean(a) > tf.reduce_mean(b):  # flag
        a, b = b, a
    return a - b
''',
        "safe",
        ("a, b = tf.cond(tf.reduce_mean(a) > tf.reduce_mean(b), lambda: true_branch(a, b), lambda: (a, b))",),
        inputs=(((3,), "float"), ((3,), "float")),
        grad=True,
    ),
    Example(
        "cond_functions_clip_with_temporary",
        '''import tensorflow as tf


def clip_update(update, max_norm):
    norm = tf.norm(update)
    if norm > max_norm:  # flag
        scale = max_norm / norm
        update = update * scale
    return update
''',
        "unsafe",  # gradients only: the untaken branch captures norm (non-linear) -> NaN at inf inputs
        ("def true_branch(update):", "update = tf.cond(norm > max_norm, lambda: true_branch(update), lambda: update)"),
        inputs=(((4,), "pos"), ((), "pos")),  # tf.norm's derivative is NaN at 0: the stated difference
        grad=True,
        rtol=1e-4,
    ),
    Example(
        "cond_functions_early_return_then_rest",
        '''import tensorflow as tf


def robust_loss(pred, target):
    err = tf.reduce_mean(tf.square(pred - target))
    if tf.reduce_max(tf.abs(pred)) > 2.0:  # flag
        return tf.reduce_mean(tf.abs(pred - target))
    reg = 0.1 * tf.reduce_mean(tf.square(pred))
    return err + reg
''',
        "unsafe",  # gradients only: the return branch does not read err, computed outside by tf.square
        ("def false_branch():\n        reg = 0.1",
         "return tf.cond(tf.reduce_max(tf.abs(pred)) > 2.0, lambda: true_branch(), lambda: false_branch())"),
        inputs=(((2, 3), "float"), ((2, 3), "float")),
        grad=True,
    ),
    Example(
        "cond_functions_early_return_rest_reassigns_argument",
        '''import tensorflow as tf


def rescale(x):
    if not tf.reduce_any(x > 0):  # flag
        return tf.zeros_like(x)
    x = x - tf.reduce_min(x)
    return x / (tf.reduce_max(x) + 1.0)
''',
        "safe",  # the rest reads x before it assigns it: x is the false branch's parameter
        ("def false_branch(x):",
         "return tf.cond(tf.logical_not(tf.reduce_any(x > 0)), lambda: true_branch(), lambda: false_branch(x))"),
        inputs=(((2, 3), "float_nan"),),
        grad=True,
    ),
    Example(
        "cond_functions_return_in_else_then_rest",
        '''import tensorflow as tf


def shifted(x, mask):
    if tf.reduce_sum(mask) > 0:  # flag
        y = x * tf.cast(mask, x.dtype)
        y = y - tf.reduce_mean(y)
    else:
        return tf.zeros_like(x)
    return y * 2.0
''',
        "safe",
        ("def true_branch():\n        y = x * tf.cast(mask, x.dtype)",
         "        return y * 2.0\n    def false_branch():\n        return tf.zeros_like(x)\n"),
        inputs=(((2, 3), "float"), ((2, 3), "mask")),
        grad=True,
    ),
    Example(
        "cond_functions_branches_run_for_effects",
        '''import tensorflow as tf

peak = tf.Variable(tf.zeros([3]))


def track_peak(x):
    peak.assign(tf.zeros([3]))
    if tf.reduce_max(x) > 1.0:  # flag
        peak.assign(x)
    else:
        peak.assign(-x)
    return peak.read_value() * 2.0
''',
        "unsafe",  # `peak.assign` is not known to be a TensorFlow op: it could be Python traced twice
        ("    tf.cond(tf.reduce_max(x) > 1.0, lambda: true_branch(), lambda: false_branch())\n",),
        inputs=(((3,), "float"),),
    ),
    Example(
        "cond_functions_return_in_one_branch_of_statements",
        '''import tensorflow as tf


def warm_kl(mu, logvar):
    if tf.reduce_mean(logvar) > -10.0:  # flag
        kl = 1.0 + logvar - tf.square(mu) - tf.exp(logvar)
        return -0.5 * tf.reduce_mean(kl)
''',
        "unsafe",  # NaN where the original returns None (the condition false): "unit" inputs keep it true
        ("tf.nest.map_structure(lambda t: tf.fill(tf.shape(t), tf.cast(float(\"nan\"), t.dtype)), true_branch())",),
        inputs=(((2, 3), "float"), ((2, 3), "unit")),
        grad=True,
    ),
    Example(
        "raise_then_else_branch",
        '''import tensorflow as tf


def normalized(x):
    total = tf.reduce_sum(tf.abs(x))
    if total > 1000.0:  # flag
        raise ValueError("activations exploded")
    else:
        x = x / (total + 1.0)
    return x
''',
        "safe",  # the else statements run after the check, where the original does not raise
        ("    tf.debugging.Assert(tf.logical_not(total > 1000.0), [\"activations exploded\"])\n"
         "    x = x / (total + 1.0)\n    return x\n",),
        inputs=(((2, 3), "float"),),
        grad=True,
    ),
    Example(
        "raise_in_else_branch",
        '''import tensorflow as tf


def scaled(x, max_total):
    total = tf.reduce_sum(tf.abs(x))
    if total <= max_total:  # flag
        y = x / (total + 1.0)
    else:
        raise ValueError("over budget")
    return y
''',
        "safe",  # the if statements run after the check, where the original does not raise
        ("    tf.debugging.Assert(tf.reduce_any(total <= max_total), [\"over budget\"])\n    y = x / (total + 1.0)\n",),
        inputs=(((2, 3), "float"), ((), "pos")),
        grad=True,
    ),
    Example(
        "unrolled_list_collect",
        '''import tensorflow as tf


def cumulative_states(x, decay):
    state = tf.zeros_like(x[:, 0])
    states = []
    for t in tf.range(tf.shape(x)[1]):
        state = decay * state + x[:, t]
        states.append(state)  # flag
    return tf.stack(states, axis=1)
''',
        "safe",  # t only indexes: a Python int and an int32 scalar select the same column
        ("for t in range(x.shape[1]):",),
        inputs=(((2, 4), "float_nan"), ((), 0.9)),
        grad=True,
    ),
    Example(
        "unrolled_step_arithmetic",
        '''import tensorflow as tf


def position_weighted(x):
    columns = []
    for t in tf.range(tf.shape(x)[1]):
        columns.append(x[:, t] * tf.cast(t + 1, x.dtype))  # flag
    return tf.stack(columns, axis=1)
''',
        "unsafe",  # t + 1 is a Python int here, an int32 tensor eagerly
        ("for t in range(x.shape[1]):",),
        inputs=(((2, 3), "float_nan"),),
    ),
    Example(
        "grow_by_concat",
        '''import tensorflow as tf


def extend(seq, w):
    for _ in tf.range(3):
        nxt = tf.reduce_sum(seq[:, -1:] * w, axis=1, keepdims=True)
        seq = tf.concat([seq, nxt], axis=1)  # flag
    return seq
''',
        "safe",
        ("for _ in range(3):",),
        inputs=(((2, 1), "float_nan"), ((), "float_nan")),
    ),
    Example(
        "one_branch_defined",
        '''import tensorflow as tf


def clip_scale(grad, max_norm):
    norm = tf.norm(grad)
    if norm > max_norm:  # flag
        scale = max_norm / norm
    return grad * scale
''',
        "safe",  # every path with the condition false reads `scale` unbound: the original raises there
        ('scale = tf.where(tf.reduce_any(norm > max_norm), max_norm / norm, float("nan"))',),
        inputs=(((3,), "float_nan"), ((), 0.5)),
        grad=True,
    ),
    Example(
        "one_branch_defined_python_number",
        '''import tensorflow as tf


def warmup_factor(step, warmup):
    if step < warmup:  # flag
        factor = 0.5
    return step * factor
''',
        "unsafe",  # the original binds a Python float; tf.where makes it a tensor
        ('factor = tf.where(tf.reduce_any(step < warmup), 0.5, float("nan"))',),
        inputs=(((), "step"), ((), "step")),
    ),
    Example(
        "one_branch_defined_read_conditionally",
        """import tensorflow as tf


def damp(x, limit, steps):
    peak = tf.reduce_max(tf.abs(x))
    if peak > limit:  # flag
        ratio = limit / peak
    for _ in range(steps):
        x = x * ratio
    return x
""",
        "unsafe",  # with steps == 0 the original returns without reading `ratio`: no raise to refine
        ('ratio = tf.where(tf.reduce_any(peak > limit), limit / peak, float("nan"))',),
        inputs=(((3,), "float"), ((), "pos"), ((), 2)),
    ),
    Example(
        "branch_dtype_cast",
        '''import tensorflow as tf


def soft_targets(one_hot_labels, smoothing):
    if smoothing > 0.0:  # flag
        targets = tf.cast(one_hot_labels, tf.float32) * (1.0 - smoothing) + smoothing / 3
    else:
        targets = one_hot_labels
    return targets
''',
        "unsafe",  # the else value comes back as float32, not int32
        ("targets = tf.where(smoothing > 0.0, targets, tf.cast(one_hot_labels, targets.dtype))",),
        inputs=(((4, 3), "mask"), ((), "smoothing")),
    ),
    Example(
        "assert_labels",
        '''import tensorflow as tf


def checked_loss(labels, logits):
    assert tf.reduce_all(labels >= 0), "negative label"  # flag
    return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits))
''',
        "safe",  # where the original returns the condition held: the Assert passes and computes nothing
        ('tf.debugging.Assert(tf.reduce_all(labels >= 0), ["negative label"])',),
        inputs=(((3,), "label"), ((3, 4), "float_nan")),
        grad=True,
    ),
    Example(
        "assert_finite_loss",
        '''import tensorflow as tf


def guarded_mse(y_true, y_pred):
    loss = tf.reduce_mean(tf.square(y_true - y_pred))
    assert tf.math.is_finite(loss), "loss diverged"  # flag
    return loss
''',
        "safe",  # is_finite(loss) is not proven rank-0: reduce_any is bool() wherever bool() returns
        ('tf.debugging.Assert(tf.reduce_any(tf.math.is_finite(loss)), ["loss diverged"])',),
        inputs=(((2, 3), "float_nan"), ((2, 3), "float")),
        grad=True,
    ),
    Example(
        "assert_formatted_message",
        '''import tensorflow as tf


def checked_probs(p):
    assert tf.reduce_all(p >= 0.0), f"negative probability, total {tf.reduce_sum(p)}"  # flag
    return p / tf.reduce_sum(p)
''',
        "unsafe",  # the f-string runs on every call in the fix, only on failure in the original
        ('tf.debugging.Assert(tf.reduce_all(p >= 0.0), [f"negative probability, total {tf.reduce_sum(p)}"])',),
        inputs=(((4,), "unit"),),
    ),
    Example(
        "unique_explained",
        '''import tensorflow as tf


def distinct_count(ids):
    values, _ = tf.unique(ids)  # flag
    return tf.size(values)
''',
        "display-only",
    ),
    Example(
        "tensor_while_explained",
        '''import tensorflow as tf


def decode(start, steps):
    out = []
    i = tf.constant(0)
    while i < steps:
        out.append(start + i)  # flag
        i += 1
    return tf.stack(out)
''',
        "display-only",
    ),
)

EXAMPLES += (
    Example(
        "keras_loss_object_on_selection",
        '''import tensorflow as tf


class TokenTagger:
    def __init__(self):
        self.loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

    def loss(self, labels, logits):
        keep = labels >= 0
        return self.loss_fn(labels[keep], logits[keep])  # flag


def tagging_loss(labels, logits):
    return TokenTagger().loss(labels, logits)
''',
        "unsafe",
        ("masked_values = tf.where(keep, self.loss_fn.call(tf.where(keep, labels, 0), "
         "tf.where(tf.expand_dims(keep, -1), logits, 0)), 0)",
         "return tf.reduce_sum(masked_values) / tf.reduce_sum(tf.cast(keep, masked_values.dtype))"),
        inputs=(((2, 3), "label_some"), ((2, 3, 4), "float")),  # Keras returns [] when nothing is kept
        grad=True,
        rtol=1e-4,
    ),
    Example(
        "masked_mse_named_intermediate",
        '''import tensorflow as tf


def masked_mse(y_true, y_pred):
    """Regression loss over the observed targets (NaN = missing)."""
    observed = tf.math.is_finite(y_true)
    diff = tf.boolean_mask(y_pred, observed) - tf.boolean_mask(y_true, observed)
    return tf.reduce_mean(tf.square(diff))  # flag
''',
        "unsafe",
        ("tf.where(observed, tf.square(y_pred - tf.where(observed, y_true, 0)), 0)",),
        inputs=(((3, 2), "float_nan"), ((3, 2), "float")),
        grad=True,
        rtol=1e-4,
    ),
)

EXAMPLES += (
    Example(
        "data_dependent_depth_explained",
        '''import tensorflow as tf


def inferred_targets(labels):
    depth = tf.reduce_max(labels) + 1
    return tf.one_hot(labels, depth)  # flag
''',
        "display-only",
    ),
    Example(
        "segment_mean_unsorted",
        '''import tensorflow as tf


def graph_mean_pool(features, graph_ids):
    return tf.math.segment_mean(features, graph_ids)  # flag
''',
        "unsafe",  # integer features: segment_mean truncates, unsorted_segment_mean returns floats
        ("tf.math.unsorted_segment_mean(features, tf.cast(graph_ids, tf.int64), "
         "num_segments=tf.maximum(tf.reduce_max(tf.cast(graph_ids, tf.int64)) + 1, 0))",),
        inputs=(((5, 2), "float"), ((5,), "sorted_ids")),
        grad=True,
    ),
    Example(
        "segment_sum_graph_pool",
        '''import tensorflow as tf


def graph_readout(node_states, graph_ids):
    """Sum the node states of each graph of a batch (ids sorted, as a graph batcher emits them)."""
    pooled = tf.math.segment_sum(node_states, graph_ids)  # flag
    return tf.nn.tanh(pooled)
''',
        "safe",
        ("pooled = tf.math.unsorted_segment_sum(node_states, tf.cast(graph_ids, tf.int64), "
         "num_segments=tf.maximum(tf.reduce_max(tf.cast(graph_ids, tf.int64)) + 1, 0))",),
        inputs=(((6, 2, 2), "float_nan"), ((6,), "sorted_ids")),
        grad=True,
    ),
    Example(
        "segment_prod_survival",
        '''import tensorflow as tf


def sequence_survival(keep_prob, seq_ids):
    """Probability that every step of each sequence survives."""
    return tf.math.segment_prod(keep_prob, seq_ids)  # flag
''',
        "safe",
        ("tf.math.unsorted_segment_prod(keep_prob, tf.cast(seq_ids, tf.int64), ",),
        inputs=(((6,), "tie"), ((6,), "sorted_ids")),
        grad=True,
    ),
    Example(
        "segment_mean_of_float_cast",
        '''import tensorflow as tf


def mean_per_segment(scores, segment_ids):
    scores = tf.cast(scores, tf.float32)
    return tf.math.segment_mean(scores, segment_ids)  # flag
''',
        "safe",  # provably float data: segment_mean and unsorted_segment_mean agree
        ("tf.math.unsorted_segment_mean(scores, tf.cast(segment_ids, tf.int64), ",),
        inputs=(((5,), "float_nan"), ((5,), "sorted_ids")),
        grad=True,
    ),
    Example(
        "segment_sum_ids_expression",
        '''import tensorflow as tf


def pool_rows(x, ids):
    return tf.math.segment_sum(x, ids - 1)  # flag
''',
        "unsafe",  # `ids - 1` is written twice
        ("tf.math.unsorted_segment_sum(x, tf.cast(ids - 1, tf.int64), ",),
        inputs=(((4,), "float"), ((4,), "sorted_ids")),
    ),
    Example(
        "segment_max_explained",
        '''import tensorflow as tf


def pool(features, graph_ids):
    return tf.math.segment_max(features, graph_ids)  # flag
''',
        "display-only",
    ),
)

EXAMPLES += (
    Example(
        "data_dependent_slice_explained",
        '''import tensorflow as tf


def truncate(x, lengths):
    n = tf.reduce_max(lengths)
    return x[:, :n]  # flag
''',
        "display-only",
    ),
)

EXAMPLES += (
    Example(
        "float_of_tensor",
        '''import tensorflow as tf


def adaptive_weight(recon, kl):
    ratio = float(recon / (kl + 1.0))  # flag
    return recon + 0.5 * ratio * kl
''',
        "unsafe",
        ("ratio = tf.cast(recon / (kl + 1.0), tf.float32)",),
        inputs=(((), "pos"), ((), "pos")),
    ),
)

EXAMPLES += (
    Example(
        "raise_in_tensor_branch",
        '''import tensorflow as tf


def checked_mean(x):
    if tf.reduce_any(tf.math.is_nan(x)):  # flag
        raise ValueError("NaN in the batch")
    return tf.reduce_mean(x)
''',
        "safe",  # where the original returns the condition was false: the Assert passes
        ('tf.debugging.Assert(tf.logical_not(tf.reduce_any(tf.math.is_nan(x))), ["NaN in the batch"])',),
        inputs=(((4,), "float_nan"),),
        grad=True,
    ),
    Example(
        "raise_behind_a_none_guard",
        '''import tensorflow as tf


def ctc_ready(logits, labels=None):
    if labels is not None and tf.reduce_max(labels) >= 4:  # flag
        raise ValueError("label values must be below the vocabulary size")
    return tf.nn.log_softmax(logits)
''',
        "safe",  # the None check stays Python and runs first, so labels=None never reaches reduce_max
        ("    if labels is not None:\n        tf.debugging.Assert(tf.logical_not(tf.reduce_max(labels) >= 4), "
         "[\"label values must be below the vocabulary size\"])",),
        inputs=(((2, 4), "float"), ((3,), "id")),
        grad=True,
    ),
    Example(
        "assert_behind_a_none_guard",
        '''import tensorflow as tf


def weighted(x, weights):
    assert weights is not None and tf.reduce_all(weights >= 0.0), "weights must be non-negative"  # flag
    return x * weights
''',
        "safe",  # `assert weights is not None` stays a Python assert and runs first
        ("    assert weights is not None, \"weights must be non-negative\"\n"
         "    tf.debugging.Assert(tf.reduce_all(weights >= 0.0), [\"weights must be non-negative\"])",),
        inputs=(((3,), "float"), ((3,), "unit")),
        grad=True,
    ),
    Example(
        "raise_caught_by_caller",
        '''import tensorflow as tf


def checked_mean(x):
    if tf.reduce_any(tf.math.is_nan(x)):  # flag
        raise ValueError("NaN in the batch")
    return tf.reduce_mean(x)


def robust_mean(x):
    try:
        return checked_mean(x)
    except ValueError:
        return tf.constant(0.0)
''',
        "unsafe",  # the caller turns the raise into a normal return of 0.0; the fix (under XLA) returns NaN
        ('tf.debugging.Assert(tf.logical_not(tf.reduce_any(tf.math.is_nan(x))), ["NaN in the batch"])',),
        inputs=(((4,), "float"),),
        extra={"entry": "checked_mean"},
    ),
)

EXAMPLES += (
    Example(
        "iterate_rows_in_comprehension",
        '''import tensorflow as tf


def row_normalize(x):
    rows = [row / tf.reduce_sum(tf.abs(row)) for row in x]  # flag: x
    return tf.stack(rows)
''',
        "safe",
        ("rows = [row / tf.reduce_sum(tf.abs(row)) for row in tf.unstack(x)]",),
        inputs=(((3, 4), "pos"),),
    ),
    Example(
        "zip_tensor_pairs",
        '''import tensorflow as tf


def margin_loss(pos_scores, neg_scores, margin=1.0):
    terms = [tf.nn.relu(margin - p + n) for p, n in zip(pos_scores, neg_scores)]  # flag: zip(pos_scores, neg_scores)
    return tf.add_n(terms) / len(terms)
''',
        "safe",
        ("zip(tf.unstack(pos_scores), tf.unstack(neg_scores))",),
        inputs=(((4,), "float"), ((4,), "float")),
        grad=True,
    ),
    Example(
        "filtered_sum",
        '''import tensorflow as tf


def positive_rows_total(hidden):
    kept = tf.add_n([h for h in tf.unstack(hidden) if tf.reduce_sum(h) > 0])  # flag: [h for h in tf.unstack(hidden) if tf.reduce_sum(h) > 0]
    return kept
''',
        "safe",  # the original raises when nothing is kept (tf.add_n([])); otherwise the zeros add nothing
        ("tf.add_n([tf.where(tf.reduce_sum(h) > 0, h, 0) for h in tf.unstack(hidden)])",),
        inputs=(((4, 3), "float_nan"),),
        grad=True,
    ),
    Example(
        "filtered_python_sum",
        '''import tensorflow as tf


def positive_rows_total(hidden):
    return sum([h for h in tf.unstack(hidden) if tf.reduce_sum(h) > 0])  # flag: [h for h in tf.unstack(hidden) if tf.reduce_sum(h) > 0]
''',
        "unsafe",  # nothing kept: the original returns the int 0, the fix a tensor of zeros
        ("sum([tf.where(tf.reduce_sum(h) > 0, h, 0) for h in tf.unstack(hidden)])",),
        inputs=(((4, 3), "float_nan"),),
        grad=True,
    ),
    Example(
        "filtered_sum_nonlinear_item",
        '''import tensorflow as tf


def positive_row_energy(hidden):
    return tf.add_n([tf.square(h) for h in tf.unstack(hidden) if tf.reduce_sum(h) > 0])  # flag: [tf.square(h) for h in tf.unstack(hidden) if tf.reduce_sum(h) > 0]
''',
        "unsafe",  # gradients only: square of a dropped inf row times the zero gradient is NaN
        ("tf.add_n([tf.where(tf.reduce_sum(h) > 0, tf.square(h), 0) for h in tf.unstack(hidden)])",),
        inputs=(((4, 3), "float"),),
        grad=True,
    ),
)

EXAMPLES += (
    Example(
        "list_of_functions_indexed_by_tensor",
        '''import tensorflow as tf

ACTIVATIONS = [tf.nn.relu, tf.tanh, tf.sigmoid]


def activate(x, scores):
    choice = tf.argmax(scores)
    return ACTIVATIONS[choice](x)  # flag: ACTIVATIONS[choice]
''',
        "unsafe",
        ("tf.switch_case(tf.cast(choice, tf.int32), [lambda fn=fn: fn(x) for fn in ACTIVATIONS])",),
        inputs=(((4,), "float"), ((3,), "float")),
        grad=True,
    ),
    Example(
        "list_of_tensors_indexed_by_tensor",
        '''import tensorflow as tf


def pick_scale(x, level):
    scales = [x, 2.0 * x, 4.0 * x]
    return scales[level]  # flag: scales[level]
''',
        "unsafe",
        ("tf.gather(tf.stack(scales), level)",),
        inputs=(((3,), "float"), ((), "level")),
        grad=True,
    ),
)

EXAMPLES += (
    Example(
        "get_value_of_step",
        '''import tensorflow as tf

STEP = tf.Variable(3.0, trainable=False)


def decayed_update(grad):
    step = tf.keras.backend.get_value(STEP)  # flag
    return 0.1 / (1.0 + step) * grad
''',
        "unsafe",
        ("step = tf.stop_gradient(STEP)",),
        inputs=(((3,), "float"),),
    ),
    Example(
        "numpy_of_variable",
        '''import tensorflow as tf

LEARNING_RATE = tf.Variable(0.05)


def sgd_delta(grad):
    lr = LEARNING_RATE.numpy()  # flag
    return -lr * grad
''',
        "unsafe",
        ("lr = tf.stop_gradient(LEARNING_RATE)",),
        inputs=(((3,), "float"),),
    ),
    Example(
        "numpy_mean_metric",
        '''import numpy as np
import tensorflow as tf


def mean_abs_error(y_true, y_pred):
    per_example = tf.reduce_mean(tf.abs(y_true - y_pred), axis=-1)
    return tf.constant(np.mean(per_example), dtype=tf.float32)  # flag
''',
        "unsafe",
        ("return tf.cast(tf.reduce_mean(per_example), tf.float32)",),
        inputs=(((3, 2), "float"), ((3, 2), "float")),
        rtol=1e-4,
    ),
    Example(
        "numpy_mean_in_bare_constant",
        # tf.constant(<symbolic tensor>) does not trace: the wrapper goes, the op's result is a tensor
        '''import numpy as np
import tensorflow as tf


def column_means(x):
    return tf.constant(np.mean(x, axis=0))  # flag
''',
        "unsafe",
        ("return tf.reduce_mean(x, axis=0)",),
        inputs=(((3, 2), "float"),),
        rtol=1e-4,
    ),
    Example(
        "numpy_then_ndarray_reduction",
        # The broken fix this guards against: tf.convert_to_tensor(err).max() (no .max on a tensor).
        '''import tensorflow as tf


def worst_error(y_true, y_pred):
    err = tf.abs(y_true - y_pred)
    return err.numpy().max(axis=-1)  # flag: err.numpy()
''',
        "unsafe",
        ("return tf.reduce_max(tf.stop_gradient(err), axis=-1)",),
        inputs=(((3, 2), "float"), ((3, 2), "float")),
    ),
    Example(
        "numpy_then_astype",
        '''import tensorflow as tf


def rounded_scores(logits):
    probs = tf.nn.softmax(logits)
    return probs.numpy().astype("float64") * 100.0  # flag: probs.numpy()
''',
        "unsafe",
        ('return tf.cast(tf.stop_gradient(probs), "float64") * 100.0',),
        inputs=(((2, 3), "float"),),
    ),
    Example(
        "gather_nd_where_cumsum",
        '''import tensorflow as tf


def running_valid_total(x, keep):
    idx = tf.where(keep)
    return tf.cumsum(tf.gather_nd(x, idx))  # flag: tf.cumsum(tf.gather_nd(x, idx))
''',
        "safe",
        ("return tf.boolean_mask(tf.cumsum(flat_values), flat_mask)",),
        inputs=(((3, 4), "float"), ((3, 4), "bool")),
        grad=True,
    ),
    Example(
        "gather_nd_where_rows_mean",
        '''import tensorflow as tf


def mean_kept_rows(x, keep):
    rows = tf.gather_nd(x, tf.where(keep))
    return tf.reduce_mean(rows * 2.0)  # flag
''',
        "unsafe",  # the mask's rank and the values' dtype are not visible here
        ("tf.reduce_sum(tf.cast(",),
        inputs=(((4, 3), "float"), ((4, 3), "bool")),
        grad=True,
    ),
    Example(
        "numpy_returned_in_a_tuple",
        '''import tensorflow as tf


def loss_and_ids(logits, labels):
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits))
    predicted = tf.argmax(logits, axis=-1).numpy()  # flag: tf.argmax(logits, axis=-1).numpy()
    return loss, predicted
''',
        "unsafe",
        ("predicted = tf.argmax(logits, axis=-1)  # flag",),
        inputs=(((3, 4), "float"), ((3,), "id")),
    ),
    Example(
        "print_in_compiled_step",
        '''import tensorflow as tf


def normalized_logits(logits):
    tf.print("max logit:", tf.reduce_max(logits))  # flag
    return logits - tf.reduce_logsumexp(logits, axis=-1, keepdims=True)
''',
        "unsafe",
        ("    if tf.executing_eagerly():\n        tf.print(\"max logit:\", tf.reduce_max(logits))\n",),
        inputs=(((2, 3), "float"),),
    ),
    Example(
        "unravel_index_of_a_peak",
        '''import tensorflow as tf


def heatmap_peak(heatmap):
    h, w = tf.shape(heatmap)[0], tf.shape(heatmap)[1]
    flat = tf.argmax(tf.reshape(heatmap, [-1]), output_type=tf.int32)
    return tf.unravel_index(flat, tf.stack([h, w]))  # flag: tf.unravel_index(flat, tf.stack([h, w]))
''',
        "unsafe",
        ("tf.math.cumprod(tf.stack([h, w]), exclusive=True, reverse=True)",),
        inputs=(((4, 5), "float"),),
    ),
    Example(
        "unravel_index_of_many",
        '''import tensorflow as tf


def cells(ids):
    return tf.unravel_index(ids, [2, 3, 4])  # flag: tf.unravel_index(ids, [2, 3, 4])
''',
        "unsafe",
        ("tf.math.floormod(",),
        inputs=(((5,), "cell"),),
    ),
)

EXAMPLES += (
    Example(
        "while_without_autograph",
        '''import tensorflow as tf


@tf.autograph.experimental.do_not_convert
def halve_until_small(x, steps):
    while tf.reduce_max(tf.abs(x)) > 1.0:  # flag
        # shrink and count
        x = x / 2.0
        steps += 1.0
    return x, steps
''',
        "safe",
        ("def loop_body(x, steps):", "        # shrink and count", "        return (x, steps)",
         "(x, steps) = tf.while_loop(lambda x, steps: tf.reduce_max(tf.abs(x)) > 1.0, loop_body, (x, steps))"),
        inputs=(((3,), "float"), ((), "step")),  # no gradient: XLA needs maximum_iterations for that
    ),
)

EXAMPLES += (
    Example(
        "elif_chain_without_autograph",
        '''import tensorflow as tf


@tf.function(autograph=False)
def schedule(x, progress):
    p = tf.reduce_mean(progress)
    if p < 0.25:  # flag
        scale = x * 0.0
    elif p < 0.75:
        scale = x * 0.5
    else:
        scale = x * 1.0
    return scale
''',
        "safe",
        ("pred = p < 0.25", "pred_2 = p < 0.75", "scale = tf.where(pred, x * 0.0, tf.where(pred_2, x * 0.5, x * 1.0))"),
        inputs=(((3,), "float"), ((4,), "unit")),
        grad=True,
    ),
)

EXAMPLES += (
    Example(
        "tensorarray_dynamic_size",
        '''import tensorflow as tf


def running_max(x):
    states = tf.TensorArray(tf.float32, size=0, dynamic_size=True)  # flag
    best = x[0]
    for i in tf.range(tf.shape(x)[0]):
        best = tf.maximum(best, x[i])
        states = states.write(i, best)
    return states.stack()
''',
        "safe",
        ("states = tf.TensorArray(tf.float32, size=tf.shape(x)[0])",),
        inputs=(((5,), "float"),),
    ),
)

EXAMPLES += (
    Example(
        "tensorarray_dynamic_size_enumerate",
        '''import tensorflow as tf


def layer_energies(x, w):
    energies = tf.TensorArray(tf.float32, size=0, dynamic_size=True)  # flag
    for i, scale in enumerate([1.0, 2.0, 3.0]):
        x = tf.tanh(x * scale + w)
        energies = energies.write(i, tf.reduce_sum(x * x))
    return energies.stack()
''',
        "safe",
        ("energies = tf.TensorArray(tf.float32, size=len([1.0, 2.0, 3.0]))",),
        inputs=(((2, 3), "float_nan"), ((3,), "float")),
        grad=True,
    ),
    Example(
        "tensorarray_dynamic_size_while_loop",
        '''import tensorflow as tf


def rows_doubled(x):
    ta = tf.TensorArray(dtype=tf.float32, size=0, dynamic_size=2, element_shape=x.shape[1:])  # flag
    n = tf.shape(x)[0]

    def body(i, acc):
        return i + 1, acc.write(i, 2.0 * x[i])

    _, ta = tf.while_loop(lambda i, _: i < n, body, (tf.constant(0), ta))
    return ta.stack()
''',
        "safe",  # the limit's binding, tf.shape(x)[0], is written where the TensorArray is made
        ("ta = tf.TensorArray(size=tf.maximum(tf.shape(x)[0], 0), dtype=tf.float32, element_shape=x.shape[1:])",),
        inputs=(((3, 2), "float_nan"),),
    ),
    Example(
        "tensorarray_dynamic_size_while_loop_literal",
        '''import tensorflow as tf


def greedy_decode(logits_table, start):
    tokens = tf.TensorArray(tf.int32, size=0, dynamic_size=True)  # flag

    def body(i, tok, ta):
        nxt = tf.argmax(logits_table[tok], output_type=tf.int32)
        return i + 1, nxt, ta.write(i, nxt)

    _, _, tokens = tf.while_loop(lambda i, tok, ta: i < 4, body, (tf.constant(0), start, tokens))
    return tokens.stack()
''',
        "safe",
        ("tokens = tf.TensorArray(tf.int32, size=4)",),
        inputs=(((4, 4), "float"), ((), "id")),
    ),
)

# Counted `while` loops that fill a Python list -> tf.TensorArray of the exact trip count (loops.py).
EXAMPLES += (
    Example(
        "counted_while_keras_decoder",
        '''import tensorflow as tf

VOCAB = 6


class GreedyTagger(tf.keras.layers.Layer):
    """Feeds each predicted tag back in as the next input."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.embed = tf.keras.layers.Embedding(
            VOCAB, 3, embeddings_initializer=tf.keras.initializers.RandomNormal(seed=1))
        self.head = tf.keras.layers.Dense(VOCAB, kernel_initializer=tf.keras.initializers.GlorotUniform(seed=2))

    def call(self, first_tag, max_steps):
        tags = []  # one [batch] tensor per step
        tag = first_tag
        step = tf.constant(0)
        while step < max_steps:
            scores = self.head(self.embed(tag))
            tag = tf.argmax(scores, axis=-1, output_type=tf.int32)
            tags.append(tag)  # flag
            step += 1
        return tf.stack(tags, axis=1)


TAGGER = GreedyTagger()
TAGGER(tf.zeros([4], tf.int32), 1)  # build the weights eagerly, once


def greedy_tags(first_tag, max_steps):
    return TAGGER(first_tag, max_steps)
''',
        "safe",
        ("        tag = first_tag\n        step = tf.constant(0)\n"
         "        num_steps = tf.reshape(tf.maximum(max_steps, step) - step, [])\n"
         "        # one [batch] tensor per step\n"
         "        tags = tf.TensorArray(tf.int32, size=num_steps)\n        while step < max_steps:\n"
         "            tf.autograph.experimental.set_loop_options(maximum_iterations=num_steps)",
         "tags = tags.write(step, tag)  # flag",
         "return tf.experimental.numpy.moveaxis(tags.stack(), 0, 1)"),
        inputs=(((4,), "id"), ((), "count")),
    ),
    Example(
        "counted_while_from_one_append_after_increment",
        '''import tensorflow as tf


def rollout(state, horizon):
    """Every state a damped system visits after the first step, time on the last axis."""
    visited = []
    t = tf.constant(1)
    while t < horizon:
        t += 1
        state = tf.cast(tf.tanh(state * 0.9 + 0.1), tf.float32)
        visited.append(state)  # flag
    return tf.stack(visited, axis=-1)
''',
        "safe",
        ("num_steps = tf.reshape(tf.maximum(horizon, t) - t, [])", "visited = tf.TensorArray(tf.float32, size=num_steps)",
         "visited = visited.write(t - 2, state)  # flag",
         "return tf.experimental.numpy.moveaxis(visited.stack(), 0, -1)"),
        inputs=(((2, 3), "float_nan"), ((), "count")),
        grad=True,
    ),
    Example(
        "counted_while_python_counter_over_rows",
        '''import tensorflow as tf


def row_energies(x):
    energies = []
    r = 0
    while r < tf.shape(x)[0]:
        energies.append(tf.reduce_sum(tf.square(tf.cast(x[r], tf.float32)) * 0.5))  # flag
        r = r + 1
    return tf.stack(energies, axis=-1)
''',
        "safe",
        ("num_steps = tf.reshape(tf.maximum(tf.shape(x)[0], r) - r, [])",
         "energies = energies.write(r, tf.reduce_sum(tf.square(tf.cast(x[r], tf.float32)) * 0.5))  # flag",
         "return tf.experimental.numpy.moveaxis(energies.stack(), 0, -1)"),
        inputs=(((4, 3), "float_nan"),),
        grad=True,
    ),
    Example(
        "counted_while_static_bound_axis_0",
        '''import tensorflow as tf


def one_hot_walk(start):
    """The one-hot codes of four successive positions on a ring of 5."""
    codes = []
    k = tf.constant(0)
    while k < 4:
        codes.append(tf.one_hot((start + k) % 5, 5))  # flag
        k += 1
    return tf.stack(codes)
''',
        "safe",
        ("num_steps = tf.reshape(tf.maximum(4, k) - k, [])", "codes = tf.TensorArray(tf.float32, size=num_steps)",
         "return codes.stack()"),
        inputs=(((3,), "id"),),
    ),
    Example(
        "counted_while_axis_0_may_run_zero_times",
        '''import tensorflow as tf


def threshold_masks(scores, length):
    """masks[n] marks the scores above n."""
    masks = []
    n = tf.constant(0)
    while n < length:
        masks.append(tf.cast(scores, tf.float32) > tf.cast(n, tf.float32))  # flag
        n += 1
    return tf.stack(masks)
''',
        "unsafe",
        ("masks = tf.TensorArray(tf.bool, size=num_steps)",
         "masks = masks.write(n, tf.cast(scores, tf.float32) > tf.cast(n, tf.float32))", "return masks.stack()"),
        inputs=(((2, 3), "float"), ((), "count_positive")),  # the stated reason: never zero times
    ),
    Example(
        "uncounted_while_explained",
        '''import tensorflow as tf


def until_stop(logits_fn, token, stop_id):
    tokens = []
    done = tf.constant(False)
    while not done:
        token = tf.argmax(logits_fn(token), axis=-1, output_type=tf.int32)
        tokens.append(token)  # flag
        done = tf.reduce_all(token == stop_id)
    return tf.stack(tokens, axis=1)
''',
        "display-only",
    ),
    Example(
        "branches_of_different_structure_explained",
        '''import tensorflow as tf


def features(x):
    if tf.reduce_sum(x) > 0:  # flag
        out = (x, tf.square(x))
    else:
        out = tf.identity(x)
    return out
''',
        "display-only",  # no tensor form: tf.cond raises on a tuple against a tensor, tf.where stacks the tuple
    ),
)

EXAMPLES += (
    Example(
        "ragged_row_lengths_to_tensor",
        '''import tensorflow as tf


def split_sentences(flat_tokens, sentence_lengths):
    """Token embeddings of a flat stream, one padded row per sentence."""
    sentences = tf.RaggedTensor.from_row_lengths(flat_tokens, sentence_lengths)  # flag
    return sentences.to_tensor(default_value=-1.0)
''',
        "safe",
        ("row_lengths = tf.convert_to_tensor(sentence_lengths, dtype_hint=tf.int64)",
         "cols = tf.range(tf.maximum(tf.reduce_max(row_lengths), 0))",
         "return tf.gather(tf.concat([values, tf.broadcast_to(tf.convert_to_tensor(-1.0, values.dtype), "
         "tf.concat([[1], tf.shape(values)[1:]], 0))], 0), take)"),
        inputs=(((6, 2), "float_nan"), ((3,), "row_lengths:6")),
        grad=True,
    ),
    Example(
        "ragged_row_splits_chained",
        '''import tensorflow as tf


def pad_segments(values, splits):
    return tf.RaggedTensor.from_row_splits(values, splits).to_tensor()  # flag
''',
        "safe",
        ('tf.debugging.assert_equal(row_splits[0], tf.zeros([], row_splits.dtype), '
         'message="row splits must start at 0")',
         "take = tf.where(cols < row_lengths[:, None], row_splits[:-1, None] + cols, "
         "tf.shape(values_2, out_type=row_splits.dtype)[0])",
         "return tf.gather(tf.concat([values_2, tf.broadcast_to(tf.zeros([], values_2.dtype), "),
        inputs=(((5,), "float_nan"), ((4,), "row_splits:5")),
        grad=True,
    ),
    Example(
        "ragged_row_lengths_expression_arguments",
        '''import tensorflow as tf


def pad_flat(x, lengths):
    return tf.RaggedTensor.from_row_lengths(tf.reshape(x, [-1]), lengths).to_tensor(0.5)  # flag
''',
        "unsafe",  # tf.reshape(x, [-1]) now runs before the rest of the return statement
        ("values = tf.convert_to_tensor(tf.reshape(x, [-1]))",),
        inputs=(((2, 3), "float"), ((2,), "row_lengths:6")),
        grad=True,
    ),
    Example(
        "ragged_value_rowids_explained",
        '''import tensorflow as tf


def rows(values, rowids):
    return tf.RaggedTensor.from_value_rowids(values, rowids).to_tensor()  # flag
''',
        "display-only",
    ),
    Example(
        "if_float_truthiness_optional",
        '''import tensorflow as tf


def add_bias(x, bias=None):
    """A layer's optional scalar bias: `if bias:` skips it when it is None or zero."""
    out = x * 2.0
    if bias:  # flag
        out = out + bias
    return out
''',
        "unsafe",  # the truth value of a float read with tf.cast(bias, tf.bool); None kept by the guard
        ("if bias is not None:\n        out = tf.where(tf.cast(bias, tf.bool), out + bias, out)",),
        inputs=(((3,), "float_nan"), ((), "float_nan")),
        grad=True,
    ),
    Example(
        "ternary_float_truthiness_optional",
        '''import tensorflow as tf


def scaled(x, scale=None):
    return x * scale if scale else x  # flag
''',
        "unsafe",
        ("return (tf.where(tf.cast(scale, tf.bool), x * scale, x) if scale is not None else x)",),
        inputs=(((3,), "float"), ((), "float")),
        grad=True,
    ),
    Example(
        "if_count_truthiness",
        '''import tensorflow as tf


def damp_if_any(x, mask):
    n = tf.reduce_sum(mask)
    if n:  # flag
        x = x / 2.0
    return x
''',
        "safe",  # a full reduction is a number: tf.not_equal(n, 0) is its truth value
        ("x = x / (1.0 + tf.cast(tf.not_equal(n, 0), x.dtype))",),
        inputs=(((4,), "float_nan"), ((4,), "mask")),
        grad=True,
    ),
    Example(
        "if_static_size_untaken_branch",
        '''import tensorflow as tf


def last_or_first(tensor):
    if tf.size(tensor) == 2:  # flag
        return tensor[1]
    else:
        return tensor[0]
''',
        "unsafe",  # the static shape is None where a dimension is unknown while tracing
        ("if tensor.shape.num_elements() == 2:  # flag\n        return tensor[1]",),
        inputs=(((1,), "float_nan"),),
        grad=True,
    ),
    Example(
        "if_static_dim_through_a_name",
        '''import tensorflow as tf


def drop_first_row(x):
    n = tf.shape(x)[0]
    if n > 1 and tf.rank(x) == 2:  # flag
        x = x[1:]
    return tf.reduce_sum(x, axis=0)
''',
        "unsafe",
        ("if x.shape[0] > 1 and len(x.shape) == 2:",),
        inputs=(((3, 2), "float_nan"),),
        grad=True,
    ),
    Example(
        "nested_tensor_loops_list_append",
        '''import tensorflow as tf


def pairwise_scores(a_rows, b_rows):
    scores = []
    for b in b_rows:
        for a in a_rows:
            scores.append(-tf.reduce_sum(a * b))  # flag
    return tf.stack(scores)
''',
        "unsafe",  # the iterables are parameters: a Python list of tensors would be packed by tf.unstack
        ("for b in tf.unstack(b_rows):", "for a in tf.unstack(a_rows):"),
        inputs=(((2, 3), "float_nan"), ((3, 3), "float_nan")),
        grad=False,
    ),
    Example(
        "tensor_loop_grows_concat",
        '''import tensorflow as tf


def running_totals(x):
    rows = tf.nn.relu(x)
    history = tf.zeros([0], x.dtype)
    for r in rows:
        history = tf.concat([history, [tf.reduce_sum(r)]], axis=0)  # flag
    return history
''',
        "safe",  # the iterable is a TensorFlow op's result: tf.unstack lists exactly its rows
        ("for r in tf.unstack(rows):",),
        inputs=(((3, 2), "float_nan"),),
        grad=True,
    ),
    Example(
        "assert_static_rank",
        '''import tensorflow as tf


def check_mask(head_mask):
    assert tf.rank(head_mask) == 2, f"Got head_mask rank of {tf.rank(head_mask)}, but require 2."  # flag
    return tf.cast(head_mask, tf.float32) * 2.0
''',
        "unsafe",
        ("assert len(head_mask.shape) == 2, f\"Got head_mask rank of {tf.rank(head_mask)}, but require 2.\"",),
        inputs=(((3, 2), "mask"),),
    ),
    Example(
        "break_in_python_range_loop",
        '''import tensorflow as tf


def halve_until_small(x):
    for _ in range(6):
        x = x / 2.0
        if tf.reduce_max(tf.abs(x)) < 1.0:
            break  # flag
    return x
''',
        "unsafe",  # the loop variable's type changes; the body's names become loop variables
        ("for _ in tf.range(6):",),
        inputs=(((3,), "float"),),
        grad=True,
    ),
    Example(
        "unique_counts_inverse_frequency",
        '''import tensorflow as tf


def balanced_ce(labels, logits):
    classes, idx, counts = tf.unique_with_counts(labels)  # flag
    inv_freq = 1.0 / tf.cast(tf.gather(counts, idx), tf.float32)
    ce = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    return tf.reduce_sum(ce * inv_freq) / tf.reduce_sum(inv_freq)
''',
        "unsafe",  # the labels' dtype is not certain: float NaN would count differently
        ("counts_per_item = tf.reduce_sum(tf.cast(tf.equal(tf.reshape(labels, [-1, 1]), tf.reshape(labels, [1, -1])), "
         "tf.int32), axis=1)", "inv_freq = 1.0 / tf.cast(counts_per_item, tf.float32)"),
        inputs=(((6,), "id"), ((6, 4), "float")),
        grad=True,
    ),
    Example(
        "unique_counts_of_int_ids",
        '''import tensorflow as tf


def item_weights(scores):
    ids = tf.argmax(scores, axis=-1, output_type=tf.int32)
    values, idx, counts = tf.unique_with_counts(ids, out_idx=tf.int64)  # flag
    return tf.gather(values, idx), tf.gather(counts, idx)
''',
        "safe",  # int32 ids: equality is exact
        ("return ids, counts_per_item",),
        inputs=(((6, 3), "float"),),  # no NaN: XLA's argmax picks another index than eager's for NaN rows
    ),
    Example(
        "unique_counts_of_uint16_ids",
        '''import tensorflow as tf


def item_weights(scores):
    ids = tf.cast(tf.argmax(scores, axis=-1, output_type=tf.int32), tf.uint16)
    values, idx, counts = tf.unique_with_counts(ids)  # flag
    return tf.gather(values, idx), tf.gather(counts, idx)
''',
        "safe",  # unsigned ids too: any integer equality is exact
        ("return ids, counts_per_item",),
        inputs=(((6, 3), "float"),),
    ),
    Example(
        "euclidean_norm_composed",
        '''import tensorflow as tf


def feature_loss(x):
    y = tf.math.reduce_euclidean_norm(x, -1, True)  # flag: tf.math.reduce_euclidean_norm(x, -1, True)
    return tf.reduce_mean(y[:, 0])
''',
        "unsafe",  # summation order; complex and integer tensors
        ("y = tf.sqrt(tf.reduce_sum(tf.square(tf.abs(x)), axis=-1, keepdims=True))",),  # positional -> keywords
        inputs=(((4, 3), "float_nan"),),
        grad=True,
        rtol=1e-5,
    ),
    Example(
        "bessel_i0_scaled",
        '''import tensorflow as tf


def von_mises_log_normalizer(kappa):
    return tf.math.log(tf.math.bessel_i0(kappa))  # flag: tf.math.bessel_i0(kappa)
''',
        "unsafe",  # last bits
        ("tf.math.log(tf.math.bessel_i0e(kappa) * tf.exp(tf.abs(kappa)))",),
        inputs=(((5,), "float_nan"),),
        grad=True,
        rtol=1e-5,
    ),
    Example(
        "histogram_fixed_width_composed",
        '''import tensorflow as tf


def value_histogram(x):
    return tf.histogram_fixed_width(x, [0.0, 2.0], nbins=4)  # flag: tf.histogram_fixed_width(x, [0.0, 2.0], nbins=4)
''',
        "unsafe",  # NaN values only
        ("tf.one_hot(",),
        inputs=(((3, 4), "float"),),
    ),
    Example(
        "static_rank_chain_with_raise",
        '''import tensorflow as tf


def expand_head_mask(head_mask):
    n_dims = tf.rank(head_mask)
    if n_dims == 1:
        head_mask = head_mask[None, :]
    elif n_dims != 2:
        raise ValueError("head_mask must have rank 1 or 2")  # flag
    return head_mask * 2.0
''',
        "unsafe",  # every test of the chain read on the static rank (transformers' layoutlmv3 get_head_mask)
        ("    if len(head_mask.shape) == 1:\n", "    elif len(head_mask.shape) != 2:\n"),
        inputs=(((3,), "float_nan"),),
        grad=True,
    ),
    Example(
        "cumsum_int8_widened",
        '''import tensorflow as tf


def token_positions(ids):
    small = tf.cast(ids, tf.int8)
    return tf.math.cumsum(small, axis=1, exclusive=True)  # flag: tf.math.cumsum(small, axis=1, exclusive=True)
''',
        "safe",  # int8 sums wrap modulo 2^8; int32 sums cast back keep the same low 8 bits
        ("return tf.cast(tf.math.cumsum(tf.cast(small, tf.int32), axis=1, exclusive=True), tf.int8)",),
        inputs=(((2, 40), "cell"),),  # sums up to 920: the int8 result wraps around
    ),
    Example(
        "cumprod_uint8_widened",
        '''import tensorflow as tf


def running_product(counts):
    c = tf.cast(counts, tf.uint8)
    return tf.math.cumprod(c, reverse=True)  # flag: tf.math.cumprod(c, reverse=True)
''',
        "safe",  # products wrap modulo 2^8 in both
        ("return tf.cast(tf.math.cumprod(tf.cast(c, tf.int32), reverse=True), tf.uint8)",),
        inputs=(((12,), "count"),),  # negatives wrap to large uint8 values; products overflow
    ),
)

# tf.while_loop arguments (xlacheck/rewrites/while_loops.py): XLA209's TensorArray invariant and
# XLA210's maximum_iterations from the loop's own counted condition.
EXAMPLES += (
    Example(
        "tensorarray_invariant_flow",
        '''import tensorflow as tf


def step_means(frames):
    n = frames.shape[0]
    means = tf.TensorArray(tf.float32, size=n)

    def body(i, means):
        return i + 1, means.write(i, tf.reduce_mean(frames[i], axis=0))

    _, means = tf.while_loop(lambda i, means: i < n, body, [tf.constant(0), means],  # flag(XLA209)
                             shape_invariants=[tf.TensorShape([]), tf.TensorShape([None, 2])])
    return means.stack()
''',
        "safe",
        ("shape_invariants=[tf.TensorShape([]), tf.TensorShape(None)])",),
        inputs=(((3, 4, 2), "float_nan"),),
    ),
    Example(
        "tensorarray_invariant_row_slice_at_counter",
        # Under XLA `x[i:i + 1, :]` at a loop variable has a size bounded by the axis (3 rows of
        # padding here), which the TensorArray stacks: the fix also indexes the row.
        '''import tensorflow as tf


def row_projections(x, w):
    batch_size = tf.shape(x)[0]
    rows = tf.TensorArray(tf.float32, size=batch_size)

    def body(i, rows):
        return i + 1, rows.write(i, tf.matmul(x[i:i + 1, :], w))

    _, rows = tf.while_loop(lambda i, rows: i < batch_size, body, [tf.constant(0), rows],  # flag(XLA209)
                            shape_invariants=[tf.TensorShape([]), tf.TensorShape([None, 1, 2])])
    return tf.reshape(rows.stack(), [batch_size, 2])
''',
        "safe",
        ("rows.write(i, tf.matmul(x[i, tf.newaxis, :], w))", "tf.TensorShape(None)])"),
        inputs=(((3, 4), "float"), ((4, 2), "float")),
    ),
    Example(
        "tensorarray_invariant_column_slice_at_counter",
        '''import tensorflow as tf


def column_norms(x):
    cols = tf.TensorArray(tf.float32, size=x.shape[1])
    _, cols = tf.while_loop(lambda t, cols: t < x.shape[1],  # flag(XLA209)
                            lambda t, cols: (t + 1, cols.write(t, tf.norm(x[:, t:t + 1], axis=0))),
                            (0, cols), shape_invariants=(tf.TensorShape([]), tf.TensorShape([None, 1])))
    return cols.stack()
''',
        "safe",
        ("cols.write(t, tf.norm(x[:, t, tf.newaxis], axis=0))",),
        inputs=(((2, 3), "float"),),
    ),
    Example(
        "tensorarray_invariant_row_slice_unproven_bound",
        # `i < n` says nothing about x's rows: n past them makes the slice empty and the index raise.
        '''import tensorflow as tf


def first_rows(x, n):
    rows = tf.TensorArray(tf.float32, size=n)

    def body(i, rows):
        return i + 1, rows.write(i, 2.0 * x[i:i + 1])

    _, rows = tf.while_loop(lambda i, rows: i < n, body, [tf.constant(0), rows],  # flag(XLA209)
                            shape_invariants=[tf.TensorShape([]), tf.TensorShape([None, 1, 3])])
    return rows.stack()
''',
        "unsafe",
        ("rows.write(i, 2.0 * x[i, tf.newaxis])",),
        inputs=(((4, 3), "float"), (None, 3)),
    ),
    Example(
        "while_loop_bound_vectorized_concat_becomes_map_fn",
        # Measured: the gradient of vectorized_map over tf.concat inside the loop does not compile
        # ("ConcatOffset ... must be a compile-time constant"); map_fn of the same function does.
        '''import tensorflow as tf


def weighted_pairs(x, w):
    steps = tf.shape(x)[0]

    def body(t, total):
        pairs = tf.vectorized_map(lambda r: tf.concat([r * w, r + w], axis=0), x)
        return t + 1, total * 0.5 + tf.reduce_sum(pairs * x[t, 0])

    _, total = tf.while_loop(lambda t, total: t < steps, body,  # flag(XLA210): tf.while_loop(...
                             (tf.constant(0), tf.constant(0.0)))
    return total
''',
        "unsafe",  # map_fn assumes fn returns the elements' dtype and structure
        ("pairs = tf.map_fn(lambda r: tf.concat([r * w, r + w], axis=0), x)",
         "(tf.constant(0), tf.constant(0.0)), maximum_iterations=steps)"),
        inputs=(((3, 2), "float"), ((2,), "float")),
        grad=True,
        rtol=1e-4,
    ),
    Example(
        "while_loop_bound_vectorized_elementwise_stays",
        '''import tensorflow as tf


def scaled_rows(x, w):
    steps = tf.shape(x)[0]

    def body(t, total):
        rows = tf.vectorized_map(lambda r: r * w, x)
        return t + 1, total * 0.5 + tf.reduce_sum(rows * x[t, 0])

    _, total = tf.while_loop(lambda t, total: t < steps, body,  # flag(XLA210): tf.while_loop(...
                             (tf.constant(0), tf.constant(0.0)))
    return total
''',
        "safe",  # an elementwise fn: vectorized_map's gradient compiles in the loop, only the bound is added
        ("rows = tf.vectorized_map(lambda r: r * w, x)",
         "(tf.constant(0), tf.constant(0.0)), maximum_iterations=steps)"),
        inputs=(((3, 2), "float"), ((2,), "float")),
        grad=True,
        rtol=1e-4,
    ),
    Example(
        "while_loop_bound_from_shape",
        '''import tensorflow as tf


def unrolled_rnn(x, w):
    steps = tf.shape(x)[1]

    def body(t, h):
        return t + 1, tf.tanh(h * w + x[:, t])

    _, h = tf.while_loop(lambda t, h: t < steps, body,  # flag(XLA210): tf.while_loop(...
                         (tf.constant(0), tf.zeros_like(x[:, 0])))
    return tf.reduce_sum(h)
''',
        "safe",
        ("(tf.constant(0), tf.zeros_like(x[:, 0])), maximum_iterations=steps)",),
        inputs=(((2, 4), "float_nan"), ((2,), "float")),
        grad=True,
    ),
    Example(
        "while_loop_bound_inclusive_module_condition",
        '''import tensorflow as tf

MAX_HOPS = 3


def keep_going(h, hop):
    return hop <= MAX_HOPS


def propagate(x, adj):
    def body(h, hop):
        return tf.tanh(tf.matmul(adj, h)), hop + 1

    h, _ = tf.while_loop(keep_going, body, [x, 0])  # flag(XLA210): tf.while_loop(keep_going, body, [x, 0])
    return tf.reduce_sum(h * h)
''',
        "safe",
        ("h, _ = tf.while_loop(keep_going, body, [x, 0], maximum_iterations=MAX_HOPS + 1)",
         "return [tf.tanh(tf.matmul(adj, h)), hop + 1]"),  # eagerly a bounded loop compares list and tuple
        inputs=(((3, 2), "float"), ((3, 3), "float")),
        grad=True,
    ),
    Example(
        "while_loop_bound_from_parameter",
        '''import tensorflow as tf


def gated(x, steps):
    _, y = tf.while_loop(  # flag(XLA210): tf.while_loop(...
        lambda i, y: i < steps, lambda i, y: (i + 1, y * tf.sigmoid(y)), (0, x))
    return tf.reduce_sum(y)
''',
        "unsafe",  # exact; XLA compiles it only for a Python or shape `steps` (here the int 4)
        ("(0, x), maximum_iterations=steps)",),
        inputs=(((3,), "float"), ((), 4)),
        grad=True,
    ),
    Example(
        "while_statement_bound",
        '''import tensorflow as tf


def accumulate(a, x):
    s, i = a, tf.constant(0)
    while i < tf.shape(x)[0]:  # flag(XLA210)
        s = tf.tanh(s) * a + x[i]
        i += 1
    return s
''',
        "safe",
        ("    while i < tf.shape(x)[0]:  # flag(XLA210)\n"
         "        tf.autograph.experimental.set_loop_options(maximum_iterations=tf.shape(x)[0])\n"
         "        s = tf.tanh(s) * a + x[i]\n",),
        inputs=(((2,), "float"), ((3, 2), "float_nan")),
        grad=True,
    ),
)

# XLA106 on a `for` statement that AutoGraph does not convert, and on reversed(x).
EXAMPLES += (
    Example(
        "for_statement_over_tensor_unconverted",
        '''import tensorflow as tf


@tf.autograph.experimental.do_not_convert
def pairwise_margins(pos, neg):
    total = tf.zeros([])
    for p in pos:  # flag(XLA106): pos
        total += tf.reduce_sum(tf.nn.relu(1.0 - p + neg))
    return total
''',
        "safe",
        ("    for p in tf.unstack(pos):  # flag(XLA106): pos\n",),
        inputs=(((3,), "float_nan"), ((2,), "float")),
        grad=True,
    ),
    Example(
        "reversed_tensor_in_comprehension",
        '''import tensorflow as tf


def discounted(rewards):
    out, running = [], tf.zeros([])
    for r in [r for r in reversed(rewards)]:  # flag(XLA106): rewards
        running = r + 0.9 * running
        out.append(running)
    return tf.stack(out[::-1])
''',
        "safe",
        ("reversed(tf.unstack(rewards))",),
        inputs=(((4,), "float"),),
        grad=True,
    ),
)

# XLA115: a constant tensor condition computed with Python instead (rewrites/constant_guards.py).
EXAMPLES += (
    Example(
        "constant_guard_reduce_min",
        '''import tensorflow as tf


def shifted_window_ids(x, dims=(4, 4), window=4, shift=2):
    min_res = tf.reduce_min(dims)
    shift_size = 0 if min_res <= window else shift
    if shift_size > 0:  # flag(XLA115)
        ids = tf.range(dims[0] - shift_size, dims[0] - 1)
        return tf.reduce_sum(tf.gather(x, ids))
    return tf.reduce_sum(x)
''',
        "unsafe",  # exact for a tuple of ints; the value is a Python int now
        ("    min_res = min(dims)\n",),
        inputs=(((4,), "float"),),
        grad=True,
    ),
)

# XLA316: nearest upsampling by integer factors as tf.repeat (rewrites/keras_layers.py).
EXAMPLES += (
    Example(
        "nearest_upsampling_as_repeat",
        '''import tensorflow as tf

layers = tf.keras.layers


def upsampled_energy(x, w):
    up = layers.UpSampling2D((2, 3))  # flag(XLA316): layers.UpSampling2D((2, 3))
    return tf.reduce_sum(up(x) * w)
''',
        "unsafe",  # the same numbers; the model's layer is a Lambda now
        ("up = layers.Lambda(lambda t: tf.repeat(tf.repeat(t, 2, axis=1), 3, axis=2))",),
        inputs=(((1, 3, 2, 2), "float_nan"), ((6, 6, 2), "float")),
        grad=True,
    ),
)

# XLA315: alg="philox" for a constant seed (rewrites/seeded_random.py).
EXAMPLES += (
    Example(
        "seeded_uniform_pinned_to_philox",
        '''import tensorflow as tf

SEED = (1, 2)


def jitter(x):
    return x + tf.random.stateless_uniform([3], seed=SEED, maxval=0.1)  # flag(XLA315): tf.random...
''',
        "unsafe",  # the same numbers on CPU; other devices' auto_select may differ
        ('tf.random.stateless_uniform([3], seed=SEED, maxval=0.1, alg="philox")',),
        inputs=(((3,), "float"),),
        grad=True,
    ),
)

# Forms the rewrites first missed (tf-fix5): an int literal against a float branch, and list
# loops whose appended value has the dtype of a tensor it is computed from (x.dtype).
EXAMPLES += (
    Example(
        "branch_int_literal_against_float_mean",
        '''import tensorflow as tf


def masked_mean_loss(per_token, mask):
    if tf.reduce_any(mask > 0):  # flag(XLA113)
        loss = tf.reduce_sum(per_token * mask) / tf.reduce_sum(mask)
    else:
        loss = 0
    return loss
''',
        "unsafe",
        ("lambda: tf.reduce_sum(per_token * mask) / tf.reduce_sum(mask), lambda: 0.0)",),
        inputs=(((3,), "float"), ((3,), "unit")),
    ),
    Example(
        "counted_while_list_dtype_of_carried_state",
        '''import tensorflow as tf


def cumulative_states(x):
    states = []
    i = tf.constant(0)
    h = tf.zeros_like(x[0])
    while i < tf.shape(x)[0]:
        h = tf.tanh(h + x[i])
        states.append(h)  # flag(XLA111)
        i += 1
    return tf.stack(states)
''',
        "unsafe",
        ("states = tf.TensorArray(x.dtype, size=num_steps)", "states = states.write(i, h)"),
        inputs=(((4, 3), "float"),),
    ),
    Example(
        "range_list_concat_cast_to_input_dtype",
        '''import tensorflow as tf


def weighted_rows(inputs):
    n = tf.shape(inputs)[0]
    feats = []
    for i in tf.range(n):
        feats.append(tf.expand_dims(inputs[i] * tf.cast(i + 1, inputs.dtype), 0))  # flag(XLA111)
    return tf.concat(feats, 0)
''',
        "unsafe",
        ("feats = tf.TensorArray(inputs.dtype, size=tf.maximum(n, 0))", "return feats.concat()"),
        inputs=(((3, 2), "float"),),
    ),
)

# XLA303: int(t) mixed with a tensor -> cast to that tensor's dtype, as eager code converts the int.
EXAMPLES += (
    Example(
        "int_cast_token_count_divides_total",
        '''import tensorflow as tf


def token_mean(loss, mask):
    mask = tf.cast(mask, tf.int32)
    n = int(tf.reduce_sum(mask))
    total = tf.reduce_sum(loss * tf.cast(mask, loss.dtype))
    return total / n  # flag(XLA303): total / n
''',
        "safe",  # an int32 sum: AutoGraph's int32 cast of it is exact
        ("return total / tf.cast(n, total.dtype)",),
        inputs=(((2, 3), "float_nan"), ((2, 3), "mask")),
        grad=True,
    ),
    Example(
        "int_cast_truncated_float_scales_row_sums",
        '''import tensorflow as tf


def scaled_rows(x, steps):
    n = int(tf.reduce_max(steps))
    return tf.reduce_sum(x, axis=-1) * n  # flag(XLA303): tf.reduce_sum(x, axis=-1) * n
''',
        "unsafe",  # a float truncated by an int32 cast: wraps past 2**31 - 1 where Python's int does not
        ("return tf.reduce_sum(x, axis=-1) * tf.cast(n, x.dtype)",),
        inputs=(((2, 3), "float"), ((4,), "step")),
        grad=True,
    ),
    Example(
        "int_cast_inline_left_operand_literal_dtype",
        '''import tensorflow as tf


def offsets(lengths, scores):
    lengths = tf.cast(lengths, tf.int16)
    return int(tf.reduce_max(lengths)) - tf.cast(scores, tf.float64)  # flag(XLA303): int(tf.reduce_max(lengths))...
''',
        "safe",  # an int16 maximum is exact in int32; the other operand is certainly float64
        ("return tf.cast(int(tf.reduce_max(lengths)), tf.float64) - tf.cast(scores, tf.float64)",),
        inputs=(((3,), "label"), ((3,), "float")),
    ),
)

# XLA302: bool(t) -> tf.cast(t, tf.bool) (what Python's bool() computes for one element).
EXAMPLES += (
    Example(
        "bool_of_tensor_as_if_test",
        '''import tensorflow as tf


def maybe_double(x):
    if bool(tf.reduce_any(x > 0)):  # flag(XLA302): bool(tf.reduce_any(x > 0))
        x = x * 2.0
    return x
''',
        "safe",  # only tested: a boolean tensor is tested as bool() would be
        ("if tf.cast(tf.reduce_any(x > 0), tf.bool):",),
        inputs=(((2, 3), "float_nan"),),
        grad=True,
    ),
    Example(
        "bool_of_float_sum_through_not",
        '''import tensorflow as tf


def zero_if_silent(x):
    x = tf.cast(x, tf.float32)
    return tf.zeros_like(x) if not bool(tf.reduce_sum(x)) else x  # flag(XLA302): bool(tf.reduce_sum(x))
''',
        "safe",  # a float: nonzero (NaN included) is true, as tf.cast to bool
        ("tf.zeros_like(x) if not tf.cast(tf.reduce_sum(x), tf.bool) else x",),
        inputs=(((3,), "tie"),),
    ),
    Example(
        "bool_of_tensor_kept_as_value",
        '''import tensorflow as tf


def gated(x, gate):
    keep = bool(tf.reduce_max(gate))  # flag(XLA302): bool(tf.reduce_max(gate))
    return tf.where(keep, x, tf.zeros_like(x))
''',
        "unsafe",  # a boolean tensor where bool() gave a Python bool
        ("keep = tf.cast(tf.reduce_max(gate), tf.bool)",),
        inputs=(((3,), "float"), ((2,), "tie")),
    ),
    Example(
        "bool_of_tensor_inside_an_indicator_rewrite",
        # The XLA101 indicator fix converts its condition with the same builtin converter: bool(c)
        # stayed a Python bool() of a symbolic tensor, which autograph=False code cannot trace.
        '''import tensorflow as tf


def halve(x):
    if bool(tf.reduce_sum(x) > 10.0):  # flag(XLA101)
        x = x / 2.0
    return x
''',
        "unsafe",
        ("x = x / (1.0 + tf.cast(tf.cast(tf.cast(tf.reduce_sum(x) > 10.0, tf.bool), tf.bool), x.dtype))",),
        inputs=(((3,), "float_nan"),),
    ),
)

# A data-sized value read in place by its reduction (no name in between), or averaged instead of
# summed, or tiled by counts from the data: the same sums and means without the data-sized axis.
EXAMPLES += (
    Example(
        "one_hot_depth_from_data_summed_in_place",
        '''import tensorflow as tf


def labelled_per_row(ids):
    n = tf.reduce_max(ids) + 1
    return tf.reduce_sum(tf.one_hot(ids, n), axis=-1)  # flag(XLA205): tf.one_hot(ids, n)
''',
        "unsafe",  # float sums in another order (exact here: sums of 0/1 below 2**24)
        ("return tf.reduce_sum(tf.cast((tf.cast(ids, tf.int64) >= 0) & (tf.cast(ids, tf.int64) < "
         "tf.cast(n, tf.int64)), tf.float32)[..., None], axis=-1)",),
        inputs=(((3, 4), "label"),),
    ),
    Example(
        "one_hot_depth_from_data_averaged_over_classes",
        '''import tensorflow as tf


def class_share(ids):
    n = tf.reduce_max(ids) + 1
    y = tf.one_hot(ids, n)  # flag(XLA205): tf.one_hot(ids, n)
    return tf.reduce_mean(y, axis=-1)
''',
        "unsafe",  # the mean divides once, in another order
        ("y = tf.where(n > 0, tf.cast((tf.cast(ids, tf.int64) >= 0) & (tf.cast(ids, tf.int64) < tf.cast(n, tf.int64)), "
         "tf.float32)[..., None] / tf.cast(n, tf.float32), float(\"nan\"))",),
        inputs=(((3, 4), "label"),),
    ),
    Example(
        "one_hot_integer_mean_is_not_rewritten",
        '''import tensorflow as tf


def class_share(ids):
    n = tf.reduce_max(ids) + 1
    y = tf.one_hot(ids, n, dtype=tf.int32)  # flag(XLA205): tf.one_hot(ids, n, dtype=tf.int32)
    return tf.reduce_mean(y, axis=-1)
''',
        "display-only",  # an integer mean truncates: the indicator over the depth is no integer
    ),
    Example(
        "repeat_counts_from_data_summed_in_place",
        '''import tensorflow as tf


def weighted_total(features, counts):
    return tf.reduce_sum(tf.repeat(features, counts, axis=0), axis=0)  # flag(XLA205): tf.repeat(features...
''',
        "unsafe",  # x * c is rounded once where the original adds c copies
        ("    repeat_weights = tf.reshape(tf.cast(counts, features.dtype), [-1] + [1] * (len(features.shape) - 1))\n"
         "    return tf.reduce_sum(tf.where(repeat_weights > 0, features * repeat_weights, 0), axis=0)",),
        inputs=(((3, 2), "float_nan"), ((3,), "count")),
        grad=True,
        rtol=1e-4,
    ),
    Example(
        "segment_sum_count_from_data_averaged_over_segments",
        '''import tensorflow as tf


def mean_segment(features, ids):
    n = tf.reduce_max(ids) + 1
    per_segment = tf.math.unsorted_segment_sum(features, ids, n)  # flag(XLA205): tf.math...
    return tf.reduce_mean(per_segment, axis=0)
''',
        "unsafe",  # float sums in another order; integers would truncate
        ("per_segment = tf.where(n > 0, tf.math.unsorted_segment_sum(features, tf.where((tf.cast(ids, "
         "tf.int64) >= 0) & (tf.cast(ids, tf.int64) < tf.cast(n, tf.int64)), 0, -1), 1) / tf.cast(n, "
         "features.dtype), float(\"nan\"))",),
        inputs=(((4, 3), "float_nan"), ((4,), "label")),
        grad=True,
        rtol=1e-4,
    ),
    Example(
        "tile_multiples_from_data_summed_over_copies",
        '''import tensorflow as tf


def tiled_total(x, ids):
    n = tf.reduce_max(ids)
    y = tf.tile(x, [1, n])  # flag(XLA205): tf.tile(x, [1, n])
    return tf.reduce_sum(y, axis=-1)
''',
        "unsafe",  # the sum times the count, where the original adds that many copies
        ("y = tf.where(tf.cast(n, tf.int64) > 0, tf.reduce_sum(x, axis=[1], keepdims=True) * "
         "tf.cast(tf.cast(n, tf.int64), x.dtype), 0)",),
        inputs=(((2, 3), "float_nan"), ((2,), "count")),
        grad=True,
        rtol=1e-4,
    ),
    Example(
        "tile_integers_summed_with_a_literal_multiple_kept",
        '''import tensorflow as tf


def tiled_counts(tokens, reps):
    tokens = tf.cast(tokens, tf.int32)
    y = tf.tile(tokens, [2, reps])  # flag(XLA205): tf.tile(tokens, [2, reps])
    return tf.reduce_sum(y, axis=1)
''',
        "safe",  # integer sums and products are exact; the literal multiple of axis 0 stays
        ("y = tf.tile(tf.where(tf.cast(reps, tf.int64) > 0, tf.reduce_sum(tokens, axis=[1], keepdims=True) * "
         "tf.cast(tf.cast(reps, tf.int64), tokens.dtype), 0), [2, 1])",),
        inputs=(((2, 3), "label"), ((), "count")),
    ),
    Example(
        "tile_multiples_from_data_averaged_over_copies",
        '''import tensorflow as tf


def tiled_mean(x, ids):
    n = tf.reduce_max(ids)
    y = tf.tile(x, [n, 1])  # flag(XLA205): tf.tile(x, [n, 1])
    return tf.reduce_mean(y, axis=0)
''',
        "unsafe",  # the mean of x, where the original averages n copies of it
        ("y = tf.where(tf.cast(n, tf.int64) > 0, tf.reduce_mean(x, axis=[0], keepdims=True), "
         "tf.zeros_like(tf.reduce_mean(x, axis=[0], keepdims=True)) + float(\"nan\"))",),
        inputs=(((2, 3), "float"), ((2,), "count")),
        grad=True,
        rtol=1e-4,
    ),
    Example(
        "one_hot_ids_computed_in_the_call_are_bound_once",
        '''import tensorflow as tf


def labelled_first_column(labels):
    n = tf.reduce_max(labels) + 1
    counts = tf.one_hot(tf.cast(labels[:, 0], tf.int32), n)  # flag(XLA205): tf.one_hot(tf.cast(labels...
    return tf.reduce_sum(counts, axis=-1)
''',
        "unsafe",  # float sums in another order
        ("    ids = tf.cast(labels[:, 0], tf.int32)\n    counts = tf.cast((tf.cast(ids, tf.int64) >= 0) & "
         "(tf.cast(ids, tf.int64) < tf.cast(n, tf.int64)), tf.float32)[..., None]  # flag",),
        inputs=(((3, 2), "label"),),
    ),
    Example(
        "segment_ids_computed_in_the_call_summed_in_place",
        '''import tensorflow as tf


def routed_total(features, ids):
    n = tf.reduce_max(ids) + 1
    return tf.reduce_sum(tf.math.unsorted_segment_sum(features, ids // 2, n), axis=0)  # flag(XLA205): tf.math...
''',
        "unsafe",  # float sums in another order
        ("    ids_2 = ids // 2\n    return tf.reduce_sum(tf.math.unsorted_segment_sum(features, "
         "tf.where((tf.cast(ids_2, tf.int64) >= 0) & (tf.cast(ids_2, tf.int64) < tf.cast(n, tf.int64)), 0, -1), 1), "
         "axis=0)",),
        inputs=(((4, 3), "float_nan"), ((4,), "label")),
        grad=True,
        rtol=1e-4,
    ),
    Example(
        "tile_kept_copies_is_explained",
        '''import tensorflow as tf


def tiled_rows(x, ids):
    n = tf.reduce_max(ids)
    y = tf.tile(x, [1, n])  # flag(XLA205): tf.tile(x, [1, n])
    return tf.reduce_sum(y, axis=0)
''',
        "display-only",  # the tiled axis survives the sum: the output shape depends on the data
    ),
)

# A dynamically sized TensorArray filled by a counted Python `while` (AutoGraph's tf.while_loop):
# the same static size as for `for i in tf.range(n)` and a counted tf.while_loop.
EXAMPLES += (
    Example(
        "tensorarray_dynamic_size_python_while",
        '''import tensorflow as tf


def running_sums(x, steps):
    sums = tf.TensorArray(tf.float32, size=0, dynamic_size=True)  # flag(XLA203)
    total = tf.zeros_like(x[0])
    i = tf.constant(0)
    while i < steps:
        total = total + x[i % tf.shape(x)[0]]
        sums = sums.write(i, total)
        i += 1
    return sums.stack()
''',
        "safe",
        ("sums = tf.TensorArray(tf.float32, size=tf.maximum(steps, 0))",),
        # zero steps: eagerly both stack to shape (0,); XLA infers the element shape (0, 2) from the
        # body, for every static-size fix of this rewrite alike
        inputs=(((3, 2), "float"), ((), "count_positive")),
    ),
    Example(
        "tensorarray_dynamic_size_python_while_int_counter",
        '''import tensorflow as tf


def doubled_rows(x):
    rows = tf.TensorArray(tf.float32, size=0, dynamic_size=True, element_shape=[2])  # flag(XLA203)
    i = 0
    while i < tf.shape(x)[0]:
        rows = rows.write(i, x[i] * 2.0)
        i += 1
    return rows.stack()
''',
        "safe",
        ("rows = tf.TensorArray(tf.float32, size=tf.maximum(tf.shape(x)[0], 0), element_shape=[2])",),
        inputs=(((3, 2), "float_nan"),),  # no gradient: XLA differentiates a while loop only with
    ),                                      # maximum_iterations, which neither version sets
)

# A counted Python `while` (a Python-int counter, a bound with a static form) that grows a tensor:
# unrolled as `for i in tf.range(...)` is, by comparing with the static size.
EXAMPLES += (
    Example(
        "counted_while_concat_unrolled",
        '''import tensorflow as tf


def doubled_prefix_rows(x):
    i = 0
    out = tf.zeros([0, 3])
    while i < tf.shape(x)[0]:
        out = tf.concat([out, x[i:i + 1] * 2.0], axis=0)  # flag(XLA206)
        i += 1
    return out
''',
        "safe",  # the same iterations with the same rows; the counter only indexes
        ("    while i < x.shape[0]:\n",),
        inputs=(((4, 3), "float_nan"),),
        grad=True,
    ),
    Example(
        "counted_while_concat_counter_read_after_the_loop",
        '''import tensorflow as tf


def rows_and_count(x):
    i = 0
    out = x[:1]
    while i < tf.shape(x)[0] - 1:
        out = tf.concat([out, out[-1:] + x[i + 1:i + 2]], axis=0)  # flag(XLA206)
        i += 1
    return out, i
''',
        "unsafe",  # the returned count is a Python int where it was an int32 tensor
        ("    while i < x.shape[0] - 1:\n",),
        inputs=(((4, 3), "float"),),
    ),
)

# XLA117: tf.cond on a Python predicate -> a Python conditional expression, the branch eager tf.cond chose.
EXAMPLES += (
    Example(
        "python_predicate_cond_lambda_branches",
        '''import tensorflow as tf


def gated(x, use_gate=True):
    h = x * 0.5
    h = tf.cond(use_gate, lambda: h * tf.sigmoid(x), lambda: h)  # flag(XLA117): tf.cond(use_gate...
    return x + h
''',
        "unsafe",  # a one-item list from a branch was unpacked by eager tf.cond
        ("    h = h * tf.sigmoid(x) if use_gate else h  # flag",),
        inputs=(((3, 2), "float"), ((), True)),
        grad=True,
    ),
    Example(
        "python_predicate_cond_named_branches_keywords",
        '''import tensorflow as tf


def scaled(x, mode=0):
    def double():
        return x * 2.0

    def keep():
        return x
    return tf.reduce_sum(tf.cond(mode > 1, true_fn=double, false_fn=keep, name="pick"))  # flag(XLA117): tf.cond(mode...
''',
        "unsafe",
        ("return tf.reduce_sum((double() if mode > 1 else keep()))",),
        inputs=(((4,), "float"), ((), 2)),
        grad=True,
    ),
)

# XLA205: tnp.arange on a tensor -> tf.range, the op it calls after testing its arguments in Python.
EXAMPLES += (
    Example(
        "numpy_arange_positions_from_dynamic_length",
        '''import tensorflow as tf
import tensorflow.experimental.numpy as tnp


def add_positions(tokens):
    seq_len = tf.shape(tokens)[1]
    positions = tnp.arange(seq_len)  # flag(XLA205): tnp.arange(seq_len)
    return tokens + tf.cast(positions, tokens.dtype)[None, :]
''',
        "unsafe",  # tnp promotes the dtype the NumPy way (the same here: an int32 tensor)
        ("    positions = tf.range(seq_len)  # flag",),
        inputs=(((2, 5), "float"),),
        grad=True,
    ),
    Example(
        "numpy_arange_strided_with_start",
        '''import tensorflow as tf
import tensorflow.experimental.numpy as tnp


def odd_rows(x):
    n = tf.shape(x)[0]
    return tf.gather(x, tnp.arange(1, n, 2))  # flag(XLA205): tnp.arange(1, n, 2)
''',
        "unsafe",
        ("return tf.gather(x, tf.range(1, n, 2))",),
        inputs=(((5, 3), "float"),),
    ),
    Example(
        "return_in_python_range_loop",
        '''import tensorflow as tf


def first_large_power(x):
    z = x
    for i in range(4):
        z = z * x
        if tf.reduce_max(tf.abs(z)) > 4.0:
            return z * float(i)  # flag(XLA110)
    return z - 1.0
''',
        "unsafe",  # every iteration runs; the returned values must share a dtype and broadcast
        ("returned, returned_value = False, None\n    for i in range(4):",
         "return (z - 1.0) if returned_value is None else tf.where(returned, returned_value, z - 1.0)"),
        inputs=(((3,), "float"),),
        grad=True,
    ),
)

# XLA205: a Keras recurrent layer on a time prefix cut by a tensor length is given a mask over the
# full time axis instead (rewrites/rnn_masks.py). Constant initializers: the original and the fixed
# module each build their own layer, with the same weights.
EXAMPLES += (
    Example(
        "recurrent_layer_on_prefix_sliced_by_length",
        '''import tensorflow as tf

ENCODER = tf.keras.layers.GRU(5, kernel_initializer=tf.keras.initializers.Constant(0.1),
                              recurrent_initializer=tf.keras.initializers.Constant(-0.2), unroll=True)
ENCODER.build((None, None, 3))  # weights made here, not while a tf.function traces


def encoded_prefix(frames, length):
    return tf.reduce_sum(ENCODER(frames[:, :length], training=False))  # flag(XLA205): frames[:, :length]
''',
        "unsafe",  # negative lengths count from the end in the slice; inf past the length reaches weight grads
        ("ENCODER(frames, training=False, mask=tf.broadcast_to(tf.range(tf.shape(frames, out_type=tf.int64)[1]) "
         "< tf.cast(length, "
         "tf.int64), tf.shape(frames)[:2]))",),
        inputs=(((2, 4, 3), "float"), ((), "count_positive")),
        grad=True,
    ),
    Example(
        "recurrent_layer_attribute_on_named_prefix",
        '''import tensorflow as tf

layers = tf.keras.layers


class Forecaster(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        init = tf.keras.initializers.Constant(0.05)
        self.lstm = layers.LSTM(4, kernel_initializer=init, recurrent_initializer=init, return_sequences=False)

    def call(self, series, steps):
        history = series[:, :steps - 1, :]  # flag(XLA205): series[:, :steps - 1, :]
        return self.lstm(history)


FORECASTER = Forecaster()
FORECASTER.lstm.build((None, None, 2))


def forecast(series, steps):
    return tf.reduce_sum(FORECASTER(series, steps))
''',
        "unsafe",
        ("history = series  # flag",
         "self.lstm(history, mask=tf.broadcast_to(tf.range(tf.shape(history, out_type=tf.int64)[1]) "
         "< tf.cast(steps - 1, "
         "tf.int64), tf.shape(history)[:2]))"),
        inputs=(((2, 3, 2), "float"), ((), "count_positive")),
        grad=True,
    ),
)

# XLA205: a reduction of a prefix cut by a tensor length reduces the whole tensor with the positions
# past the bound masked (rewrites/prefix_reductions.py).
EXAMPLES += (
    Example(
        "sum_over_time_of_a_prefix",
        '''import tensorflow as tf


def pooled(frames, length):
    return tf.reduce_sum(tf.reduce_sum(frames[:, :length], axis=1))  # flag(XLA205): frames[:, :length]
''',
        "unsafe",  # a negative length counts from the end in the slice only
        ("tf.reduce_sum(tf.where(tf.reshape(tf.range(tf.shape(frames, out_type=tf.int64)[1]) "
         "< tf.cast(length, tf.int64), "
         "[-1] + [1] * (len(frames.shape) - 2)), frames, 0), axis=1)",),
        inputs=(((2, 4, 3), "float_nan"), ((), "count_positive")),
        grad=True,
    ),
    Example(
        "mean_squared_error_over_a_prefix_of_steps",
        '''import tensorflow as tf


def prefix_mse(pred, target, steps):
    err = tf.reduce_mean(tf.square(pred[:steps] - target[:steps]), axis=0)  # flag(XLA205): pred[:steps]
    return 1.0 + tf.reduce_sum(err)
''',
        "unsafe",
        ("err = tf.reduce_sum(tf.where(tf.reshape(tf.range(tf.shape(pred, out_type=tf.int64)[0]) "
         "< tf.cast(steps, tf.int64), "
         "[-1] + [1] * (len(pred.shape) - 1)), tf.square(pred - target), 0), axis=0) / "
         "tf.cast(tf.minimum(tf.cast(steps, tf.int64), tf.shape(pred, out_type=tf.int64)[0]), pred.dtype)",),
        inputs=(((4, 2), "float"), ((4, 2), "float"), ((), "count_positive")),
        grad=True,
    ),
    Example(
        "peak_of_a_prefix",
        '''import tensorflow as tf


def peak(scores, n):
    return tf.reduce_max(-scores[:, :n], axis=1, keepdims=True)  # flag(XLA205): scores[:, :n]
''',
        "unsafe",
        ("tf.reduce_max(tf.where(tf.reshape(tf.range(tf.shape(scores, out_type=tf.int64)[1]) "
         "< tf.cast(n, tf.int64), [-1] + [1] * "
         "(len(scores.shape) - 2)), -scores, float('-inf')), axis=1, keepdims=True)",),
        inputs=(((3, 4), "float"), ((), "count_positive")),
    ),
)

EXAMPLES += (
    Example(
        "bidirectional_lstm_on_a_prefix",
        '''import tensorflow as tf

from tensorflow.keras import layers

INIT = tf.keras.initializers.Constant(0.1)
BI = layers.Bidirectional(layers.LSTM(3, kernel_initializer=INIT, recurrent_initializer=INIT))
BI.build((None, None, 2))
POOL = layers.GlobalAveragePooling1D()


def summary(frames, length):
    return tf.reduce_sum(BI(frames[:, :length]))  # flag(XLA205): frames[:, :length]
''',
        "unsafe",
        ("BI(frames, mask=tf.broadcast_to(tf.range(tf.shape(frames, out_type=tf.int64)[1]) "
         "< tf.cast(length, tf.int64), "
         "tf.shape(frames)[:2]))",),
        inputs=(((2, 4, 2), "float"), ((), "count_positive")),
        grad=True,
    ),
    Example(
        "average_pooling_of_a_prefix",
        '''import tensorflow as tf

from tensorflow.keras import layers

POOL = layers.GlobalAveragePooling1D()


def summary(frames, length):
    return POOL(frames[:, :length])  # flag(XLA205): frames[:, :length]
''',
        "unsafe",
        ("POOL(frames, mask=tf.broadcast_to(tf.range(tf.shape(frames, out_type=tf.int64)[1]) "
         "< tf.cast(length, tf.int64), "
         "tf.shape(frames)[:2]))",),
        inputs=(((2, 4, 2), "float"), ((), "count_positive")),  # inf/NaN past the length: NaN (unsafe)
    ),
)

# review22: the bound of a prefix is often int64 (tf.math.count_nonzero, tf.argmax); tf.range and tf.shape
# are int32 and TF does not promote, so the mask compares in int64 (before, the fix raised TypeError).
EXAMPLES += (
    Example(
        "recurrent_layer_on_prefix_of_a_counted_length",
        '''import tensorflow as tf

ENCODER = tf.keras.layers.SimpleRNN(3, kernel_initializer=tf.keras.initializers.Constant(0.1),
                                    recurrent_initializer=tf.keras.initializers.Constant(0.2))
ENCODER.build((None, None, 2))


def encoded_prefix(frames, valid):
    length = tf.math.count_nonzero(valid)
    return tf.reduce_sum(ENCODER(frames[:, :length]))  # flag(XLA205): frames[:, :length]
''',
        "unsafe",
        ("ENCODER(frames, mask=tf.broadcast_to(tf.range(tf.shape(frames, out_type=tf.int64)[1]) "
         "< tf.cast(length, tf.int64), "
         "tf.shape(frames)[:2]))",),
        inputs=(((2, 4, 2), "float"), ((4,), "mask")),
    ),
    Example(
        "mean_over_a_prefix_of_a_counted_length",
        '''import tensorflow as tf


def pooled(frames, valid):
    length = tf.math.count_nonzero(valid)
    return tf.reduce_mean(frames[:, :length] * 2.0, axis=1)  # flag(XLA205): frames[:, :length]
''',
        "unsafe",
        ("tf.cast(tf.minimum(tf.cast(length, tf.int64), tf.shape(frames, out_type=tf.int64)[1]), frames.dtype)",),
        inputs=(((2, 4, 3), "float"), ((4,), "mask")),
    ),
)

# XLA205: a prefix cut by a tensor length, bound to a name read only inside reductions over the cut
# axis: the assignment goes and each reduction reads the whole tensor masked (prefix_reductions.py)
EXAMPLES += (
    Example(
        "named_prefix_pooled_by_mean_and_max",
        '''import tensorflow as tf


def pooled(frames, length):
    h = frames[:, :length]  # flag(XLA205): frames[:, :length]
    avg = tf.reduce_mean(h, axis=1)
    return tf.reduce_sum(avg + tf.reduce_max(tf.abs(h) * 2.0, axis=1))
''',
        "unsafe",  # a negative length counts from the end in the slice only
        ("avg = tf.reduce_sum(tf.where(tf.reshape(tf.range(tf.shape(frames, out_type=tf.int64)[1]) "
         "< tf.cast(length, tf.int64), [-1] + [1] * (len(frames.shape) - 2)), frames, 0), axis=1) / "
         "tf.cast(tf.minimum(tf.cast(length, tf.int64), tf.shape(frames, out_type=tf.int64)[1]), frames.dtype)",),
        inputs=(((2, 4, 3), "float"), ((), "count_positive")),
        grad=True,
    ),
)

# XLA119 (fixes25): a data-dependent tensor XLA rejects or gets wrong (tf_bounded_dynamic.json) that ends in
# reductions gets the shared masked-reduction rewrite: tf.squeeze(tf.where(m)) as the indices of a
# gather whose rows are reduced (through two names), and tf.ones_like of a selection summed (a count).
EXAMPLES += (
    Example(
        "squeezed_where_indices_gathered_then_summed",
        '''import tensorflow as tf


def foreground_total(mask, probs):
    flat_mask = tf.reshape(mask, [-1])
    flat_probs = tf.reshape(probs, [-1])
    fg = tf.squeeze(tf.where(flat_mask > 0.5))  # flag(XLA119): tf.squeeze(tf.where(flat_mask > 0.5))
    fg_probs = tf.gather(flat_probs, fg)
    return tf.reduce_sum(fg_probs * 2.0)
''',
        "unsafe",  # tf.squeeze of tf.where(m) lists rows only for a 1-D mask
        ("return tf.reduce_sum(tf.where(flat_mask > 0.5, flat_probs * 2.0, 0))",),
        inputs=(((2, 3), "unit"), ((2, 3), "float")),
        grad=True,
    ),
    Example(
        "ones_like_of_a_selection_counts_the_mask",
        '''import tensorflow as tf


def kept_mean(scores, keep):
    kept = tf.boolean_mask(scores, keep > 0)
    return tf.reduce_sum(kept) / tf.reduce_sum(tf.ones_like(kept))  # flag(XLA119): tf.ones_like(kept)
''',
        "unsafe",
        ("tf.reduce_sum(tf.where(keep > 0, scores, 0)) / tf.reduce_sum(tf.where(keep > 0, tf.ones_like(scores), 0))",),
        inputs=(((5,), "float"), ((5,), "mask")),
        grad=True,
    ),
)

# XLA204 (fixes25): tf.unique_with_counts whose counts are never read becomes tf.unique (UniqueWithCounts has
# no XLA kernel, Unique has one: tf_xla_ops.json); y and idx are the same.
EXAMPLES += (
    Example(
        "unique_with_counts_counts_unused_unpacked",
        '''import tensorflow as tf


def distinct_total(ids):
    y, idx, _ = tf.unique_with_counts(ids)  # flag(XLA204): tf.unique_with_counts(ids)
    return tf.reduce_sum(tf.gather(y, idx)) + tf.cast(tf.reduce_sum(y), tf.int32)
''',
        "safe",
        ("y, idx = tf.unique(ids)",),
        inputs=(((6,), "label"),),
    ),
    Example(
        "unique_with_counts_values_indexed",
        '''import tensorflow as tf


def distinct_positions(v):
    pos = tf.unique_with_counts(v, out_idx=tf.int64)[1]  # flag(XLA204): tf.unique_with_counts(v, out_idx=tf.int64)
    return tf.reduce_sum(pos)
''',
        "safe",
        ("pos = tf.unique(v, out_idx=tf.int64)[1]",),
        inputs=(((6,), "label"),),
    ),
)

# XLA111/XLA302 (fixes25): a Python range over a tensor's dimension (tf.shape(x)[k], directly or through a
# name) loops over x.shape[k], the static size when traced, so Python unrolls it (rewrites/static_dims.py).
EXAMPLES += (
    Example(
        "list_of_columns_over_range_of_a_shape_name",
        '''import tensorflow as tf


def scaled_columns(x):
    n = tf.shape(x)[1]
    columns = []
    for j in range(n):
        columns.append(x[:, j:j + 1] * float(j + 1))  # flag(XLA111): columns.append(x[:, j:j + 1] * float(j + 1))
    return tf.concat(columns, axis=1)
''',
        "unsafe",  # unrolled; a dimension unknown when traced makes range raise
        ("for j in range(x.shape[1]):",),
        inputs=(((2, 3), "float"),),
        grad=True,
    ),
)

# XLA206 (fixes29): a tf.range loop over a parameter whose default is an int literal unrolls over Python's
# range: AutoGraph runs range(n) of a Python int as a Python loop and turns range(tensor) into tf.range
# (test_range_of_a_tensor_is_the_tf_range_loop_under_autograph), so every value a caller passes loops the same.
EXAMPLES += (
    Example(
        "grow_by_concat_over_a_parameter_with_an_int_default",
        '''import tensorflow as tf


def rollout(state, decay, horizon=3):
    """Append `horizon` damped steps to a trajectory."""
    for _ in tf.range(horizon):
        state = tf.concat([state, decay * tf.tanh(state[:, -1:])], 1)  # flag
    return state
''',
        "safe",
        ("for _ in range(horizon):",),
        inputs=(((3, 2), "float_nan"), ((), "float")),
    ),
    # the trip count an attribute holds, set once in __init__ from an int (Source.literal_of)
    Example(
        "grow_by_concat_over_an_attribute_set_from_an_int",
        '''import tensorflow as tf


class Extender(tf.keras.layers.Layer):
    def __init__(self, steps=3, **kwargs):
        super().__init__(**kwargs)
        self.steps = steps

    def call(self, seq):
        for _ in tf.range(self.steps):
            seq = tf.concat([seq, seq[:, -1:] * 0.5], axis=1)  # flag
        return seq


def extend(seq):
    return Extender()(seq)
''',
        "safe",
        ("for _ in range(self.steps):",),
        inputs=(((2, 1), "float_nan"),),
    ),
)

# fixes31: a mean of repeated rows read inside an expression is divided by as one quotient
EXAMPLES += (
    Example(
        "repeat_then_mean_divided_into",
        '''import tensorflow as tf


def inverse_mean(features, weights):
    counts = tf.cast(tf.round(weights * 3.0), tf.int32)
    expanded = tf.repeat(features, counts, axis=0)  # flag
    return 2.0 / tf.reduce_mean(expanded, axis=0)
''',
        "unsafe",  # float rounding of x * c; all counts 0: NaN in both (0 / 0)
        ("return 2.0 / (tf.reduce_sum(tf.where(expanded_weights > 0, features * expanded_weights, 0), axis=0) / "
         "tf.reduce_sum(expanded_weights * tf.ones_like(features), axis=0))",),
        inputs=(((4, 3), "float_nan"), ((4,), "unit")),
        rtol=1e-4,
    ),
)

# XLA301 (fixes32): `.numpy()` of an integer scalar tensor read as a slice bound or an index keeps the
# tensor (an eager integer tensor has __index__; tf.Tensor slicing takes a scalar tensor bound), so the next pass
# can mask the cut (XLA205's prefix fixes) instead of failing at trace time.
EXAMPLES += (
    Example(
        "numpy_count_read_as_an_index",
        '''import tensorflow as tf


def pick_after_kept(x, keep):
    k = tf.reduce_sum(tf.cast(keep, tf.int32)).numpy()  # flag: tf.reduce_sum(tf.cast(keep, tf.int32)).numpy()
    return x[k] * 2.0
''',
        "unsafe",
        ("k = tf.reduce_sum(tf.cast(keep, tf.int32))  # flag",),
        inputs=(((6,), "float"), ((5,), "bool")),
    ),
    Example(
        "numpy_count_read_as_a_window_start",
        '''import tensorflow as tf


def window_after_kept(x, keep):
    k = tf.reduce_sum(tf.cast(keep, tf.int32)).numpy()  # flag: tf.reduce_sum(tf.cast(keep, tf.int32)).numpy()
    return tf.reduce_sum(x[k:k + 2])
''',
        "unsafe",
        ("k = tf.reduce_sum(tf.cast(keep, tf.int32))  # flag",),
        inputs=(((7,), "float"), ((5,), "bool")),
    ),
)

# XLA205 (fixes32): two pieces of a concatenation whose sizes split a static length by a tensor value
# become one tf.where over whole pieces of that length (rewrites/concat_fills.py).
EXAMPLES += (
    Example(
        "concat_of_ones_and_zeros_split_by_a_count",
        '''import tensorflow as tf


def first_kept_weights(x, w):
    k = tf.math.count_nonzero(w > 0.5, dtype=tf.int32)
    weights = tf.concat([tf.ones([k]), tf.zeros([tf.shape(x)[0] - k])], axis=0)  # flag(XLA205): tf.ones([k])
    return tf.reduce_sum(x * weights)
''',
        "unsafe",
        ("weights = tf.where(tf.sequence_mask(k, tf.shape(x)[0]), tf.ones([tf.shape(x)[0]]), "
         "tf.zeros([tf.shape(x)[0]]))",),
        inputs=(((6,), "float"), ((6,), "unit")),
        grad=True,
    ),
    Example(
        "prefix_padded_by_a_fill_to_its_length",
        '''import tensorflow as tf


def keep_first_rows(x, lengths):
    n = tf.reduce_max(lengths)
    return tf.concat([x[:n], tf.fill([x.shape[0] - n, 3], -1.0)], 0)  # flag(XLA205): x[:n]
''',
        "unsafe",
        ("return tf.where(tf.sequence_mask(n, x.shape[0])[:, tf.newaxis], x, tf.fill([x.shape[0], 3], -1.0))",),
        inputs=(((5, 3), "float"), ((3,), "count_positive")),
        grad=True,
    ),
    Example(
        "zeros_then_ones_rows_to_a_module_length",
        '''import tensorflow as tf

MAX_LEN = 6


def tail_rows(scores):
    k = tf.reduce_sum(tf.cast(scores > 0.5, tf.int32))
    grid = tf.concat([tf.zeros((MAX_LEN - k, 2)), tf.ones((k, 2))], axis=0)  # flag(XLA205): tf.ones((k, 2))
    return grid * 3.0
''',
        "unsafe",
        ("grid = tf.where(tf.sequence_mask(MAX_LEN - k, MAX_LEN)[:, tf.newaxis], tf.zeros((MAX_LEN, 2)), "
         "tf.ones((MAX_LEN, 2)))",),
        inputs=(((6,), "unit"),),
    ),
)

# XLA205 (fixes32): a size read from a tf.Variable that only holds a constructor's number keeps the number
# (tensorflow#108073: d_model kept in a non-trainable variable and read as a reshape's last dimension).
EXAMPLES += (
    Example(
        "reshape_to_a_width_stored_as_variable",
        '''import tensorflow as tf


class MergeHeads(tf.keras.layers.Layer):
    def __init__(self, width, **kwargs):
        super().__init__(**kwargs)
        self.width = tf.Variable(width, trainable=False)

    def call(self, x):
        batch = tf.shape(x)[0]
        return tf.reshape(x, (batch, -1, self.width)) * 2.0  # flag(XLA205): tf.reshape(x, (batch, -1, self.width))

    def grow(self):
        return self.width + 1


layer = MergeHeads(6)


def merged(x):
    return layer(x)
''',
        "unsafe",
        ("self.width = width",),
        inputs=(((2, 3, 2, 3), "float"),),
    ),
)

# XLA101/XLA111 (fixes32): one statement per branch, differing in one value (an append of one of two
# values), becomes the statement on tf.cond of the two (jax_conditions.one_difference, shared with JAX).
EXAMPLES += (
    Example(
        "append_one_of_two_values_in_an_unrolled_loop",
        '''import tensorflow as tf


def gated_rows(x, w):
    outs = []
    for i in range(x.shape[0]):
        if tf.reduce_sum(x[i]) > 0:  # flag
            outs.append(x[i] * w[i])
        else:
            outs.append(tf.zeros_like(x[i]))
    return tf.stack(outs)
''',
        "unsafe",
        ("outs.append(tf.cond(tf.reduce_sum(x[i]) > 0, lambda: x[i] * w[i], lambda: tf.zeros_like(x[i])))",),
        inputs=(((3, 2), "float"), ((3, 2), "float")),
        grad=True,
    ),
    Example(
        "append_method_of_one_of_two_values",
        '''import tensorflow as tf


def clipped_totals(x):
    totals = []
    for row in tf.unstack(x):
        if tf.reduce_max(row) > 1.0:  # flag
            totals.append(tf.reduce_sum(row) / tf.reduce_max(row))
        else:
            totals.append(tf.reduce_sum(row))
    return tf.stack(totals)
''',
        "unsafe",
        ("totals.append(tf.cond(tf.reduce_max(row) > 1.0, lambda: tf.reduce_sum(row) / tf.reduce_max(row), "
         "lambda: tf.reduce_sum(row)))",),
        inputs=(((4, 3), "float"),),
    ),
)

# fixes33: a suffix `x[k:]` or a window `x[a:b]` cut by tensor bounds, reduced over the cut axis: the whole
# tensor with the positions outside the bounds masked (`tf.range(T) >= k`), as for a prefix
# (rewrites/prefix_reductions.py); a mean divides by the count of the positions kept.
EXAMPLES += (
    Example(
        "sum_of_a_suffix_cut_by_a_tensor_start",
        '''import tensorflow as tf


def tail_energy(frames, start):
    return tf.reduce_sum(tf.square(frames[start:]))  # flag(XLA205): frames[start:]
''',
        "unsafe",  # a negative start counts from the end in the slice only
        ("tf.reduce_sum(tf.where(tf.reshape(tf.range(tf.shape(frames, out_type=tf.int64)[0]) "
         ">= tf.cast(start, tf.int64), [-1] + [1] * (len(frames.shape) - 1)), tf.square(frames), 0))",),
        inputs=(((4, 2), "float"), ((), "count_positive")),
        grad=True,
    ),
    Example(
        "mean_of_a_suffix_after_a_counted_length",
        '''import tensorflow as tf


def late_mean(frames, valid):
    start = tf.math.count_nonzero(valid)
    return tf.reduce_mean(frames[:, start:] * 2.0, axis=1)  # flag(XLA205): frames[:, start:]
''',
        "unsafe",
        ("tf.cast(tf.math.count_nonzero(tf.range(tf.shape(frames, out_type=tf.int64)[1]) "
         ">= tf.cast(start, tf.int64)), frames.dtype)",),
        inputs=(((2, 4, 3), "float"), ((4,), "mask")),
        grad=True,
    ),
    Example(
        "peak_of_a_window_between_tensor_bounds",
        '''import tensorflow as tf


def window_peak(scores, lo, hi):
    return tf.reduce_max(scores[:, lo:hi], axis=1)  # flag(XLA205): scores[:, lo:hi]
''',
        "unsafe",
        ("tf.reduce_max(tf.where(tf.reshape(tf.logical_and(tf.range(tf.shape(scores, out_type=tf.int64)[1]) "
         ">= tf.cast(lo, tf.int64), tf.range(tf.shape(scores, out_type=tf.int64)[1]) < tf.cast(hi, tf.int64)), "
         "[-1] + [1] * (len(scores.shape) - 2)), scores, float('-inf')), axis=1)",),
        inputs=(((3, 5), "float"), ((), 1), ((), "count_positive")),
    ),
)
