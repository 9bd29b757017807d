"""Positions: one line table (lines as Python counts them, columns in characters), diagnostics
whose columns are ruff's, and fixes that apply on lines with non-ASCII text, tabs, CRLF and form
feeds (issue 10 item 3)."""

from __future__ import annotations

import ast
import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from xlacheck import rewrites
from xlacheck.api import fix_paths
from xlacheck.config import Settings
from xlacheck.diagnostics import Diagnostic, FileResult, Location, RunResult
from xlacheck.engine import check_source_and_tree
from xlacheck.fixes import apply_fixes, decode_source, fix_source, unified_diff
from xlacheck.positions import LineTable
from xlacheck.reporters import render

# -- the line table ---------------------------------------------------------------------------


def test_lines_end_only_where_python_ends_them() -> None:
    text = "a = 1\fb\n\vc = '\x1c\x1d\x1e\x85\u2028\u2029'\r\nd\re\n"
    table = LineTable(text)
    assert table.line_count == 5  # four line ends; the last line is empty
    assert [table.line(i) for i in range(1, 6)] == ["a = 1\fb", "\vc = '\x1c\x1d\x1e\x85\u2028\u2029'", "d", "e", ""]
    assert table.line(2, keepends=True).endswith("\r\n")
    assert "".join(table.lines()) == text
    assert len(table.lines()) == 4  # no empty last line
    # the tokenizer agrees: `d` is on line 3, `e` on line 4
    names = {n.id: n.lineno for n in ast.walk(ast.parse("a = 1;\fb = 1\nc = 2\r\nd\re\n")) if isinstance(n, ast.Name)}
    assert names == {"a": 1, "b": 1, "c": 2, "d": 3, "e": 4}


@pytest.mark.parametrize("line", ['s = "▁é"; x', "s = 'é';\tx", "\fs = '😀'; x", "x", 's = "naïve ▁▁ 😀 tab\t"; x'])
def test_byte_and_character_columns_convert_both_ways(line: str) -> None:
    node = next(n for n in ast.walk(ast.parse(line)) if isinstance(n, ast.Name) and n.id == "x")
    table = LineTable(line + "\n")
    col = table.char_col(1, node.col_offset)
    assert line[col] == "x"  # a character column indexes the str
    assert table.byte_col(1, col) == node.col_offset
    assert table.char_col(1, node.end_col_offset) == col + 1


def test_offsets_and_positions_convert_both_ways() -> None:
    text = "a\r\nbé\rc\fd\n"
    table = LineTable(text)
    for offset in range(len(text) + 1):
        loc = table.position(offset)
        assert table.offset(loc.line, loc.col) == offset
    assert table.position(text.index("d")) == Location(3, 2)
    assert table.offset(3, 2) == text.index("d")
    assert table.offset(3, 99) is None and table.offset(0, 0) is None
    assert table.offset(5, 0) == len(text)  # "the start of the line after the last"


# -- diagnostics: 1-based character columns, as ruff reports them -------------------------------

LINES = {  # the same finding (a tensor `assert`, XLA102) after different text on its line
    "ascii": "    assert tf.reduce_sum(x) > 0\n",
    "sentencepiece": '    s = "▁▁"; assert tf.reduce_sum(x) > 0\n',
    "accents": "    s = 'Ünïcödé'; assert tf.reduce_sum(x) > 0\n",
    "emoji": "    s = '😀'; assert tf.reduce_sum(x) > 0\n",
    "form-feed": "\f    s = 'é'; assert tf.reduce_sum(x) > 0\n",
    "tab": "    s = 'é';\tassert tf.reduce_sum(x) > 0\n",
}
HEADER = "import tensorflow as tf\n\f\n@tf.function(jit_compile=True)\ndef f(x):\n"


def _lint(source: str, preview: bool = False) -> tuple[Diagnostic, ...]:
    result, tree = check_source_and_tree(source, "example.py", preview=preview)
    assert result.error is None and tree is not None
    return rewrites.attach_fixes(source, tree, result.diagnostics)


@pytest.mark.parametrize("name", LINES)
def test_columns_count_characters_on_the_line_python_numbers(name: str) -> None:
    line = LINES[name]
    (d,) = [d for d in _lint(HEADER + line) if d.code == "XLA102"]
    assert d.start.line == 5  # the form feed on line 2 ends no line
    assert d.start.col == line.index("assert")
    assert d.end.col == len(line.rstrip("\n"))


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_columns_and_lines_with_every_line_end(newline: str) -> None:
    source = (HEADER + LINES["sentencepiece"]).replace("\n", newline)
    (d,) = [d for d in _lint(source) if d.code == "XLA102"]
    assert (d.start.line, d.start.col) == (5, LINES["sentencepiece"].index("assert"))


def _ruff() -> str | None:
    try:
        from ruff.__main__ import find_ruff_bin  # the `ruff` wheel

        return str(find_ruff_bin())
    except (ImportError, FileNotFoundError):
        return shutil.which("ruff")


@pytest.mark.skipif(_ruff() is None, reason="ruff is not installed")
@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_columns_equal_ruffs_on_the_same_lines(tmp_path: Path, newline: str) -> None:
    """ruff's S101 (use of `assert`) starts at the assert statement, as XLA102 does; its
    columns are 1-based code points (a tab, a form feed, an emoji: one each)."""
    source = (HEADER + "".join(LINES.values()) + "def g(x):\n\tq = 'ö';\tassert x\n").replace("\n", newline)
    path = tmp_path / "example.py"
    path.write_bytes(source.encode())
    out = subprocess.run([_ruff(), "check", "--isolated", "--no-cache", "--select", "S101", "--output-format",
                          "json", "--exit-zero", str(path)], capture_output=True, text=True, check=True).stdout
    ruff = sorted((d["location"]["row"], d["location"]["column"]) for d in json.loads(out))
    ours = json.loads(render("json", RunResult((FileResult(str(path), _lint(source)),))))["diagnostics"]
    ours = sorted((d["line"], d["column"]) for d in ours if d["code"] == "XLA102")
    assert len(ours) == len(LINES)
    assert ours == ruff[: len(ours)]
    assert len(ruff) == len(ours) + 1  # g is not compiled: only ruff flags its assert


# -- reporters: every format shows the same 1-based character column ----------------------------


def test_every_reporter_shows_the_character_column() -> None:
    source = HEADER + LINES["sentencepiece"]
    diagnostics = tuple(d for d in _lint(source) if d.code == "XLA102")
    result = RunResult((FileResult("example.py", diagnostics),))
    column = LINES["sentencepiece"].index("assert") + 1
    assert f"example.py:5:{column}: XLA102" in render("text", result)
    assert json.loads(render("json", result))["diagnostics"][0]["column"] == column
    assert f",line=5,col={column}," in render("github", result)
    run = json.loads(render("sarif", result))["runs"][0]
    assert run["columnKind"] == "unicodeCodePoints"
    assert run["newlineSequences"] == ["\r\n", "\r", "\n"]
    region = run["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (5, column)


# -- fixes on such lines apply and parse --------------------------------------------------------


def _fixed(source: str, *, unsafe: bool = True, preview: bool = False) -> str:
    diagnostics = _lint(source, preview)
    assert any(d.fix is not None and d.fix.edits for d in diagnostics), diagnostics
    outcome = fix_source(source, diagnostics, lambda text: _lint(text, preview), unsafe=unsafe,
                         newline=decode_source(source.encode()).newline)
    assert outcome.error is None, outcome.error
    assert outcome.fixed
    ast.parse(outcome.text)
    return outcome.text


INLINE_FIXES = [  # (rule, original, fixed): the rules that build their own fixes
    pytest.param(
        "import tensorflow as tf\nfrom transformers import DataCollatorWithPadding\n"
        "collator = DataCollatorWithPadding(tokenizer, return_tensors='▁é')\n",
        "import tensorflow as tf\nfrom transformers import DataCollatorWithPadding\n"
        "collator = DataCollatorWithPadding(tokenizer, return_tensors='▁é', pad_to_multiple_of=32)\n",
        id="XLA401"),
    pytest.param(
        "import tensorflow as tf\nresolver = tf.distribute.cluster_resolver.TPUClusterResolver()\n"
        "strategy = tf.distribute.TPUStrategy(resolver)\nwith strategy.scope():\n"
        "    model = tf.keras.Sequential(name='modèle▁')\n"
        "    model.compile(loss='mse', name='é▁', jit_compile=True)\n",
        "import tensorflow as tf\nresolver = tf.distribute.cluster_resolver.TPUClusterResolver()\n"
        "strategy = tf.distribute.TPUStrategy(resolver)\nwith strategy.scope():\n"
        "    model = tf.keras.Sequential(name='modèle▁')\n"
        "    model.compile(loss='mse', name='é▁')\n",
        id="XLA501"),
    pytest.param(
        "import tensorflow as tf\nstrategy = tf.distribute.TPUStrategy()\n"
        "@tf.function(jit_compile=True, experimental_attributes={'é▁': 1})\ndef step(x):\n"
        "    return strategy.run(lambda v: v * 2.0, args=(x,))\n",
        "import tensorflow as tf\nstrategy = tf.distribute.TPUStrategy()\n"
        "@tf.function(experimental_attributes={'é▁': 1})\ndef step(x):\n"
        "    return strategy.run(lambda v: v * 2.0, args=(x,))\n",
        id="XLA501-first-argument"),
    pytest.param(
        "import tensorflow as tf\n@tf.function(jit_compile=True)\ndef step(w, x, i):\n    return w * x * (0.99 ** i)\n"
        "def train(w, batches):\n    for i, x in enumerate(batches):\n        w = step(w, x, i)  # ▁\n"
        "        print('▁é', step(w, x, i))\n    return w\n",
        "import tensorflow as tf\n@tf.function(jit_compile=True)\ndef step(w, x, i):\n    return w * x * (0.99 ** i)\n"
        "def train(w, batches):\n    for i, x in enumerate(batches):\n        w = step(w, x, tf.constant(i))  # ▁\n"
        "        print('▁é', step(w, x, tf.constant(i)))\n    return w\n",
        id="XLA403"),
]


@pytest.mark.parametrize(("original", "expected"), INLINE_FIXES)
@pytest.mark.parametrize("variant", ["plain", "crlf", "tabs", "form-feed"])
def test_rules_that_build_their_own_fixes(original: str, expected: str, variant: str) -> None:
    original, expected = (_variant(variant, text) for text in (original, expected))
    assert _fixed(original, preview=True) == expected  # XLA401 and XLA553 are behind --preview


IF_IN_FUNCTION = (
    "import tensorflow as tf\n\n\n@tf.function(jit_compile=True, autograph=False)\ndef step(x):\n"
    "    y = tf.zeros_like(x)  # ▁é\n"
    "    if tf.reduce_sum(x) > 0.0:  # ▁\n        y = y + 1.0\n"
    "    s = '▁é'; assert tf.reduce_min(x) > -1.0\n"
    "    n = len([a for a in x if a > 0]) + len('▁é')\n"
    "    return y, s, n\n"
)
IF_IN_FUNCTION_FIXED = (
    "import tensorflow as tf\n\n\n@tf.function(jit_compile=True, autograph=False)\ndef step(x):\n"
    "    y = tf.zeros_like(x)  # ▁é\n"
    "    # ▁\n    y = tf.where(tf.reduce_sum(x) > 0.0, y + 1.0, y)\n"
    "    s = '▁é'; tf.debugging.Assert(tf.reduce_min(x) > -1.0, ['assertion failed: tf.reduce_min(x) > -1.0'])\n"
    "    n = len([a for a in tf.unstack(x) if a > 0]) + len('▁é')\n"
    "    return y, s, n\n"
)


@pytest.mark.parametrize("variant", ["plain", "crlf", "cr", "tabs", "form-feed"])
def test_rewrites_apply_on_lines_with_non_ascii_text(variant: str) -> None:
    original, expected = (_variant(variant, text) for text in (IF_IN_FUNCTION, IF_IN_FUNCTION_FIXED))
    assert _fixed(original, unsafe=False) == expected


def test_a_form_feed_line_keeps_its_page_break_when_the_line_is_replaced() -> None:
    original = IF_IN_FUNCTION.replace("    if tf.reduce_sum", "\f    if tf.reduce_sum")
    assert "\f    # ▁\n    y = tf.where(" in _fixed(original)


def test_the_fix_api_and_diff_on_a_crlf_file_with_form_feeds(tmp_path: Path) -> None:
    path = tmp_path / "step.py"
    path.write_bytes(_variant("form-feed", IF_IN_FUNCTION).replace("\n", "\r\n").encode())
    run = fix_paths([path], Settings(cache=False, jobs=1, root=tmp_path), write=True)
    assert [f.error for f in run.fixes] == [None] and len(run.fixes[0].fixed) == 3
    assert path.read_bytes() == _variant("form-feed", IF_IN_FUNCTION_FIXED).replace("\n", "\r\n").encode()
    diff = unified_diff("step.py", run.fixes[0].original, run.fixes[0].text)
    assert "\n-\f" not in diff and "\n+\f" not in diff  # a form feed ends no diff line
    assert diff.count("\n-") == 4 and diff.count("\n+") == 5  # header lines included


def test_the_applier_counts_characters_and_python_lines() -> None:
    text = "a = '\f▁'; b = 1\nc = 2\n"
    table = LineTable(text)
    col = text.index("1")
    from xlacheck.diagnostics import Edit, Fix

    d = Diagnostic("x.py", "XLA000", "x", "m", Location(1, col), Location(1, col + 1),
                   fix=Fix("m", (Edit(Location(1, col), Location(1, col + 1), "2"), Edit(Location(2, 4), Location(2, 5), "3"))))
    assert table.offset(2, 4) == text.index("2")
    assert apply_fixes(text, [d]).text == "a = '\f▁'; b = 2\nc = 3\n"


def _variant(kind: str, text: str) -> str:
    """The same program with other line ends, tab indentation, or a form feed on its own line
    and inside a comment before the code (str.splitlines would count two more lines)."""
    if kind == "crlf":
        return text.replace("\n", "\r\n")
    if kind == "cr":
        return text.replace("\n", "\r")
    if kind == "tabs":
        return "".join(_tabify(line) for line in text.splitlines(keepends=True))
    if kind == "form-feed":
        first, _, rest = text.partition("\n")
        return f"{first}\n# page\fbreak ▁\n\f\n{rest}"
    return text


def _tabify(line: str) -> str:
    stripped = line.lstrip(" ")
    return "\t" * ((len(line) - len(stripped)) // 4) + stripped


# -- the position index: a lookup per finding, not a scan of the file -----------------------------


def _smallest_enclosing(src, start: Location, end: Location):  # type: ignore[no-untyped-def]
    """The old scan, as the reference: exact span first (outermost), else the smallest enclosing
    (the deepest of equal ones)."""
    best, size = None, None
    for n in src.nodes:
        if getattr(n, "end_lineno", None) is None or not hasattr(n, "lineno"):
            continue
        s, e = src.start(n), src.end(n)
        if s == start and e == end:
            return n
        if s <= start and end <= e:
            length = src.offset(e) - src.offset(s)
            if size is None or length <= size:
                best, size = n, length
    return best


def test_the_position_index_finds_what_a_scan_of_every_node_finds() -> None:
    import random

    from xlacheck.rewrites import _PositionIndex
    from xlacheck.rewrites._source import Source

    files = sorted((Path(__file__).parent / "eval_files").glob("*.py"))[:12]
    sources = [f.read_text() for f in files] + [_variant("form-feed", IF_IN_FUNCTION), INLINE_FIXES[3].values[0]]
    rnd = random.Random(0)
    checked = 0
    for text in sources:
        src = Source(text, ast.parse(text))
        index = _PositionIndex(src)
        spans = [(src.start(n), src.end(n)) for n in src.nodes if getattr(n, "end_lineno", None) is not None]
        # every node's own span, and spans between two positions that match no node
        queries = rnd.sample(spans, min(len(spans), 150))
        queries += [(min(a[0], b[1]), max(a[0], b[1])) for a, b in (rnd.sample(spans, 2) for _ in range(100))]
        for start, end in queries:
            assert index.at(start, end) is _smallest_enclosing(src, start, end), (start, end)
            checked += 1
    assert checked > 1000


# -- every rewrite, on every kind of line ---------------------------------------------------------

_spec = importlib.util.spec_from_file_location("rewrite_examples", Path(__file__).with_name("rewrite_examples.py"))
_examples = sys.modules.setdefault(_spec.name, importlib.util.module_from_spec(_spec))  # type: ignore[arg-type]
_spec.loader.exec_module(_examples)  # type: ignore[union-attr]
REWRITE_EXAMPLES = _examples.EXAMPLES
MARK = "é"


def _accented(text: str) -> str:
    """Every name the file binds (assignments, loop targets, parameters) spelled with a trailing
    ``é``, wherever it is read or written: columns after it differ in bytes and characters."""
    tree = ast.parse(text)
    bound = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    bound |= {a.arg for a in ast.walk(tree) if isinstance(a, ast.arg)}
    bound -= {a.asname or a.name.partition(".")[0] for a in ast.walk(tree) if isinstance(a, ast.alias)}
    table = LineTable(text)
    ends = sorted({(n.lineno, n.col_offset + len(n.id)) for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in bound}
                  | {(a.lineno, a.col_offset + len(a.arg)) for a in ast.walk(tree) if isinstance(a, ast.arg) and a.arg in bound})
    out, cursor = [], 0
    for line, col in ends:
        at = table.offset(line, col)
        assert at is not None
        out += [text[cursor:at], MARK]
        cursor = at
    out.append(text[cursor:])
    return "".join(out)


def _flagged(source: str) -> Diagnostic:
    """As test_rewrites.flagged, in character columns and Python's line numbers."""
    table = LineTable(source)
    line, marker = next((i, text.split("# flag", 1)[1]) for i, text in enumerate(table.lines(), 1) if "# flag" in text)
    tree = ast.parse(source)
    if marker.strip().startswith(":"):
        wanted = marker.strip()[1:].strip()
        node = next(n for n in sorted((n for n in ast.walk(tree) if isinstance(n, ast.expr) and n.lineno == line),
                                      key=lambda n: n.col_offset)
                    if ast.get_source_segment(source, n).replace(MARK, "") == wanted)  # type: ignore[union-attr]
    else:
        node = [n for n in ast.walk(tree) if isinstance(n, ast.stmt) and n.lineno == line][-1]
    return Diagnostic("example.py", "XLA000", "example", "flagged", table.char_location(node.lineno, node.col_offset),
                      table.char_location(node.end_lineno, node.end_col_offset))


def _reserving(source: str, names: set[str]) -> str:
    """The source with a last line that reads ``names``, so fresh names avoid them in both
    spellings of a file (else ``values_2`` in one is ``values`` in the other)."""
    return source + f"RESERVED = [{', '.join(sorted(names))}]\n"


def _rewritten(source: str) -> str | None:
    (diagnostic,) = rewrites.attach_fixes(source, ast.parse(source), [_flagged(source)])
    if diagnostic.fix is None or not diagnostic.fix.edits:
        return None
    result = apply_fixes(source, [diagnostic], unsafe=True, newline=decode_source(source.encode()).newline)
    assert result.applied, result
    return result.text


@pytest.mark.parametrize("variant", ["crlf", "cr", "form-feed", "tabs", "non-ascii"])
def test_every_rewrite_example_gives_the_same_fix_on_every_kind_of_line(variant: str) -> None:
    checked, wrong = 0, []
    for example in REWRITE_EXAMPLES:
        source = example.source
        if variant == "non-ascii":
            if "nonlocal" in source or "global" in source:
                continue  # declared names are not renamed: the renamed program would mean something else
            names = {n.id for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Name)}
            expected = _rewritten(_reserving(source, names))
            got = _rewritten(_reserving(_accented(source), names))
            same = got is not None and expected is not None and got.replace(MARK, "") == expected
        else:
            expected = _rewritten(source)
            got = _rewritten(_variant(variant, source))
            same = expected is not None and got == _variant(variant, expected)
        if expected is None:
            continue  # an explanation, no edit
        checked += 1
        if got is not None:
            ast.parse(got)
        if not same:
            wrong.append(example.name)
    assert checked > 60
    assert not wrong, wrong
