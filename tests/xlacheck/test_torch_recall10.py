"""What torch-recall10 added to the PyTorch adapter's value flow, pinned on small programs, each with the
near miss that must stay silent:

* what a same-file helper returns (``loss = masked_mean(loss, m)``; ``loss, acc = compute_loss(...)``),
  walked with the flags of what the call passes; the forward of a same-file module says what each item
  of its tuple is (``logits, sizes = self.router(x)`` with ``sizes`` a ``.tolist()``);
* the items of a module's output unpacked (``loss, logits = model(x, y)``: each is what ``out[i]`` is);
* a dict display of tensors: its items are tensors, and printing or formatting it reads them;
* the literal an argument has by the file's own word (a module constant, ``self.mode`` set in
  ``__init__`` from a ``mode="bicubic"`` default) decides an argument-dependent op (XLA351);
* a parameter declared ``int`` is a Python number: ``torch.div(seq_len, w)`` of two is a CPU scalar.
"""

from __future__ import annotations

import textwrap

from xlacheck.engine import check_source


def _found(src: str) -> list[tuple[int, str]]:
    # preview: XLA450 is behind --preview (below 90% true on real code); its facts are still tested
    found = check_source(textwrap.dedent(src), "t.py", torch_xla=True, preview=True).diagnostics
    return [(d.line, d.code) for d in found]


def _line(src: str, text: str) -> int:
    return next(i for i, line in enumerate(textwrap.dedent(src).splitlines(), 1) if text in line)


STEP = """
import torch
import torch.nn.functional as F

{helpers}

def make_train_step(model, opt, log):
    def train_step(x, y, m):
        opt.zero_grad()
{body}
        loss.backward()
        opt.step()
{after}
        return loss.detach()
    return train_step
"""


def _step(helpers: str = "", body: str = "", after: str = "") -> str:
    pad = lambda text: textwrap.indent(textwrap.dedent(text).strip("\n"), " " * 8)  # noqa: E731
    return STEP.format(helpers=textwrap.dedent(helpers).strip("\n"), body=pad(body), after=pad(after))


def test_a_helpers_returned_tensor_is_a_tensor() -> None:
    helpers = """
    def masked_mean(x, m):
        return (x * m).sum() / m.sum()
    """
    src = _step(helpers, "loss = masked_mean(F.cross_entropy(model(x), y, reduction='none'), m)",
                "log.append(float(loss))")
    assert _found(src) == [(_line(src, "float(loss)"), "XLA350")]


def test_each_item_of_a_helpers_tuple_keeps_its_own_flags() -> None:
    helpers = """
    def compute(model, x, y):
        logits = model(x)
        return F.cross_entropy(logits, y), (logits.argmax(-1) == y).float().mean(), len(y)
    """
    src = _step(helpers, "loss, acc, n = compute(model, x, y)", "log.append(acc.item())\nprint(n)")
    assert _found(src) == [(_line(src, "acc.item()"), "XLA350")]  # acc is read; n is a Python int


def test_a_helper_returning_none_on_one_path_still_returns_a_tensor() -> None:
    helpers = """
    def aux_loss(h, w):
        if w is None:
            return None
        return torch.relu(h).mean() * w
    """
    src = _step(helpers, "loss = F.cross_entropy(model(x), y)\naux = aux_loss(model(x), 0.1)", "print(aux)")
    assert _found(src) == [(_line(src, "print(aux)"), "XLA350")]


def test_a_helper_returning_python_values_is_not_a_tensor() -> None:
    helpers = """
    def shape_of(t):
        return t.shape[0]
    """
    src = _step(helpers, "loss = F.cross_entropy(model(x), y)\nn = shape_of(torch.relu(x))", "print(n)")
    assert _found(src) == []


def test_unpacked_model_outputs_are_tensors() -> None:
    src = _step(body="loss, logits = model(x, y)", after="log.append(float(loss))\nprint('logits', logits)")
    assert _found(src) == [(_line(src, "float(loss)"), "XLA350"), (_line(src, "print("), "XLA350")]


def test_a_same_file_forward_says_what_its_items_are() -> None:
    src = """
    import torch
    import torch.nn as nn


    class Router(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 3)

        def forward(self, x):
            logits = self.lin(x)
            return torch.softmax(logits, -1), (logits > 0).long().sum(0).tolist()


    class Moe(nn.Module):
        def __init__(self):
            super().__init__()
            self.router = Router()

        def forward(self, x):
            probs, sizes = self.router(x)
            parts = x.split(sizes, dim=0)
            print(probs)
            return torch.cat(parts)
    """
    # the .tolist() in the router is the read; split by a Python list reads nothing; printing probs does
    assert _found(src) == [(13, "XLA350"), (24, "XLA350")]


def test_a_layer_of_unknown_class_returning_sizes_like_a_same_file_forward_is_not_assumed() -> None:
    src = """
    import torch
    import torch.nn as nn


    class Stage(nn.Module):
        def __init__(self):
            super().__init__()
            self.proj = nn.Conv2d(3, 3, 1)

        def forward(self, x):
            y = self.proj(x)
            return y, y.shape[2], y.shape[3]


    class Encoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.stages = nn.ModuleList([Stage() for _ in range(2)])

        def forward(self, x):
            for stage in self.stages:
                x, h, w = stage(x)
                x = x.reshape(x.shape[0], h, w, -1).permute(0, 3, 1, 2)
            return x
    """
    assert _found(src) == []


def test_a_dict_of_tensors_is_read_when_printed_and_its_items_are_tensors() -> None:
    src = _step(body="loss = F.cross_entropy(model(x), y)",
                after="stats = {'loss': loss.detach(), 'acc': loss.detach() * 2}\nprint(stats)\n"
                      "v = stats['acc']\nlog.append(f'{v}')")
    assert _found(src) == [(_line(src, "print(stats)"), "XLA350"), (_line(src, "f'{v}'"), "XLA350")]


def test_a_dict_given_a_python_value_is_no_longer_a_dict_of_tensors() -> None:
    src = _step(body="loss = F.cross_entropy(model(x), y)",
                after="stats = {'loss': loss.detach()}\nstats['lr'] = 0.1\nlog.append(stats)")
    assert _found(src) == []


def test_argument_literals_from_the_file_decide_argument_dependent_ops() -> None:
    src = """
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    MODE = "bicubic"


    class Decoder(nn.Module):
        def __init__(self, mode="bicubic", near="nearest"):
            super().__init__()
            self.conv = nn.Conv2d(4, 4, 3, padding=1)
            self.mode = mode
            self.near = near
            self.up = nn.Upsample(scale_factor=2, mode=mode)

        def forward(self, x):
            a = F.interpolate(x, scale_factor=2.0, mode=self.mode)
            b = F.interpolate(x, scale_factor=2.0, mode=MODE)
            c = F.interpolate(x, scale_factor=2.0, mode=self.near)
            return self.conv(a) + self.conv(b) + self.conv(c) + self.conv(self.up(x))
    """
    assert _found(src) == [(15, "XLA351"), (18, "XLA351"), (19, "XLA351")]


def test_a_default_that_a_construction_overrides_decides_nothing() -> None:
    src = """
    import torch.nn as nn
    import torch.nn.functional as F


    class Decoder(nn.Module):
        def __init__(self, mode="bicubic"):
            super().__init__()
            self.mode = mode

        def forward(self, x):
            return F.interpolate(x, scale_factor=2.0, mode=self.mode)


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.dec = Decoder(mode="nearest")

        def forward(self, x):
            return self.dec(x)
    """
    assert _found(src) == []


def test_sizes_from_int_parameters_make_cpu_scalars() -> None:
    src = """
    import torch
    import torch.nn as nn


    def chunk_scores(q: torch.Tensor, w: int):
        seq_len = q.size(1)
        n = torch.div(seq_len, w, rounding_mode="trunc") - 1
        return q.new_zeros((q.size(0), n + 1, w))


    class Attn(nn.Module):
        def __init__(self):
            super().__init__()
            self.proj = nn.Linear(4, 4)

        def forward(self, x):
            return chunk_scores(self.proj(x), 2)
    """
    assert _found(src) == []


def test_a_per_step_number_comes_back_out_of_a_method() -> None:
    src = """
    import torch.nn.functional as F


    class Trainer:
        def __init__(self, model, opt):
            self.model, self.opt = model, opt
            self.step = 0

        def curriculum_len(self):
            return min(16 + self.step // 100, 512)

        def train_step(self, ids, y):
            self.opt.zero_grad()
            loss = F.cross_entropy(self.model(ids[:, :self.curriculum_len()]), y)
            loss.backward()
            self.opt.step()
            self.step += 1
            return loss.detach()
    """
    assert _found(src) == [(_line(src, "curriculum_len()]"), "XLA450")]


def test_a_modules_own_forward_says_what_self_returns() -> None:
    src = """
    import torch
    import torch.nn as nn
    import torch.nn.functional as F


    class GPT(nn.Module):
        def __init__(self):
            super().__init__()
            self.head = nn.Linear(8, 16)

        def forward(self, x):
            logits = self.head(x)
            return logits, None

        def n_params(self):
            return sum(p.numel() for p in self.parameters())

        @torch.no_grad()
        def generate(self, x, steps: int, top_k: int):
            for _ in range(steps):
                logits, _ = self(x)
                v, _ = torch.topk(logits, top_k)
                logits[logits < v[:, [-1]]] = -float("inf")
                x = torch.cat([x, F.softmax(logits, -1)[:, :8]], 1)
            return x
    """
    assert (_line(src, "logits[logits <"), "XLA250") in _found(src)
