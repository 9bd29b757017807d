"""Jupyter notebooks: code cells linted as one module, ``cell N`` positions, magics, fixes into the JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_fakes import fake_engine  # noqa: F401  (fixture)

from xlacheck import api, notebook
from xlacheck.cli import main


def _cell(kind: str, source: list[str] | str, **extra: object) -> dict[str, object]:
    cell: dict[str, object] = {"cell_type": kind, "metadata": {"id": f"c{len(str(source))}"}, "source": source}
    if kind == "code":
        cell |= {"execution_count": 3, "outputs": [{"name": "stdout", "output_type": "stream", "text": ["é ok\n"]}]}
    cell.update(extra)
    return cell


CELLS = [
    _cell("markdown", ["# A model\n", "Trained on a TPU."]),
    _cell("code", ["%pip install -q tensorflow\n", "import tensorflow as tf\n", "!nvidia-smi"]),
    _cell("code", "x = tf.ones([3])\ny = x.numpy()\nif tf.reduce_any(x > 0):\n    z = 1\n"),
    _cell("code", ["%%bash\n", "echo x.numpy()\n"]),
    _cell("code", ["%%time\n", "tf.print?\n", "w = x.numpy()  # kept: %%time runs Python\n", "v = !ls"]),
]


def _write(path: Path, cells: list[dict[str, object]] = CELLS, indent: int = 1, **meta: object) -> str:
    # Jupyter's own layout: indent 1, keys sorted, not ASCII-only, a final newline.
    data = {"cells": cells, "metadata": {"kernelspec": {"language": "python", "name": "python3"}, **meta},
            "nbformat": 4, "nbformat_minor": 5}
    text = json.dumps(data, indent=indent, sort_keys=True, ensure_ascii=False) + "\n"
    path.write_text(text, encoding="utf-8")
    return text


@pytest.fixture
def nb(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fake_engine) -> Path:  # noqa: F811
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    path = tmp_path / "nb.ipynb"
    _write(path)
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_findings_carry_cell_line_and_column_like_ruff(nb: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "--no-cache")  # discovered by the folder walk, like ruff
    assert code == 1
    lines = out.splitlines()
    # cells count from 1 over every cell (the markdown cell is cell 1), as ruff counts them
    assert lines[:3] == [
        "nb.ipynb:cell 3:2:6: XLA301 [*] `.numpy()` syncs with the host",
        "nb.ipynb:cell 3:3:1: XLA101 Python `if` on a tensor",
        "nb.ipynb:cell 5:3:6: XLA301 [*] `.numpy()` syncs with the host",
    ]
    assert "Found 3 findings in 1 file." in out  # %%bash's `echo x.numpy()` is not Python
    code, out, _ = run(capsys, "--no-cache", "--output-format", "json")
    first = json.loads(out)["diagnostics"][0]
    assert (first["cell"], first["line"], first["column"], first["end_column"]) == (3, 2, 6, 14)
    assert first["fix"]["edits"][0]["line"] == 2  # fix edits are in the cell's lines too


def test_magics_keep_line_numbers_and_are_never_linted() -> None:
    text = json.dumps({"cells": CELLS, "metadata": {}})
    parsed = notebook.read(text.encode())
    assert parsed is not None
    lines = parsed.source.splitlines()
    # cell 2 starts at line 1; its magics became `pass` (plus a marker comment) on the same lines
    assert lines[0].startswith("pass  #") and lines[1] == "import tensorflow as tf" and lines[2].startswith("pass  #")
    assert parsed.position(2) == (2, 2) and parsed.position(5) == (3, 1)
    # cell 4 (%%bash) is all placeholders; cell 5's %%time body is Python, its help and shell lines are not
    import ast

    ast.parse(parsed.source)  # the joined text is Python
    assert "echo" not in parsed.source and "w = x.numpy()" in parsed.source and "!ls" not in parsed.source


def test_indented_magics_keep_their_block_and_round_trip(nb: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    cell = ["import tensorflow as tf\n", "if True:\n", "    !pip install \\\n", "  -q keras\n", "y = x.numpy()\n"]
    before = _write(nb, [_cell("code", cell)])
    parsed = notebook.read(before.encode())
    assert parsed is not None
    import ast

    ast.parse(parsed.source)  # the indented shell line became `pass`, its continuation a comment
    code, out, _ = run(capsys, "--no-cache", "--fix", "nb.ipynb")
    assert code == 0 and "error" not in out
    assert nb.read_text(encoding="utf-8") == before.replace("x.numpy()", "x")


def test_ipython_leading_indent_and_automagics(nb: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    # IPython strips a cell's leading indentation and runs `ls data/`, `cd ..`, `pip install x`
    # (found in tensorflow/docs notebooks: guide/data.ipynb, hub/.../wav2vec2_saved_model_finetuning.ipynb)
    cells = [
        _cell("code", ["import tensorflow as tf\n", "ls ./data/train/\n", "cd ..\n", "pip install -q x\n"]),
        _cell("code", ["  for x in xs:\n", "    y = x.numpy()\n", "\n", "  z = 1\n"]),
    ]
    before = _write(nb, cells)
    code, out, _ = run(capsys, "--no-cache")
    assert code == 1 and "error" not in out
    assert "nb.ipynb:cell 2:2:10: XLA301" in out  # the cell's own column, indentation included
    run(capsys, "--no-cache", "--fix", "nb.ipynb")
    assert nb.read_text(encoding="utf-8") == before.replace("x.numpy()", "x")
    parsed = notebook.read(b'{"cells": [{"cell_type": "code", "source": "ls = [1]\\nls == 2\\nls (\\n"}]}')
    assert parsed is not None and "ls = [1]" in parsed.source and "ls == 2" in parsed.source  # Python, kept


def test_a_cell_that_parses_is_never_rewritten() -> None:
    source = 'def f():\n    """Is it?\n    really?"""\n'
    parsed = notebook.read(json.dumps({"cells": [_cell("code", source)]}).encode())
    assert parsed is not None and parsed.source == source


def test_fix_round_trip_changes_only_the_fixed_cells_source(nb: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    before = nb.read_text(encoding="utf-8")
    code, out, _ = run(capsys, "--no-cache", "--fix", "nb.ipynb")
    assert code == 1 and "(2 fixed, 1 remaining)" in out
    after = nb.read_text(encoding="utf-8")
    old, new = json.loads(before), json.loads(after)
    assert new["cells"][2]["source"] == "x = tf.ones([3])\ny = x\nif tf.reduce_any(x > 0):\n    z = 1\n"
    assert new["cells"][4]["source"] == ["%%time\n", "tf.print?\n", "w = x  # kept: %%time runs Python\n", "v = !ls"]
    for k in (2, 4):  # outputs, metadata, magics: everything but the source is untouched
        old["cells"][k]["source"] = new["cells"][k]["source"]
    assert old == new
    # byte for byte: only the fixed source lines differ, in the file's own layout (indent 1, é kept, final newline)
    changed = [(a, b) for a, b in zip(before.splitlines(), after.splitlines()) if a != b]
    assert len(before.splitlines()) == len(after.splitlines()) and len(changed) == 2
    assert all(".numpy()" in a and ".numpy()" not in b for a, b in changed)
    assert "é ok" in after and after.endswith("}\n")
    code, out, _ = run(capsys, "--no-cache", "--fix", "nb.ipynb")  # idempotent
    assert nb.read_text(encoding="utf-8") == after


@pytest.mark.parametrize("indent", [2, 4])
def test_other_json_layouts_round_trip(nb: Path, capsys, indent: int) -> None:  # type: ignore[no-untyped-def]
    cells = [_cell("code", ["import tensorflow as tf\n", "y = x.numpy()\n"])]
    before = _write(nb, cells, indent=indent)
    run(capsys, "--no-cache", "--fix", "nb.ipynb")
    assert nb.read_text(encoding="utf-8") == before.replace("x.numpy()", "x")


def test_colab_layout_round_trips(nb: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    # As Colab saves: indent 2, keys in Colab's order (not sorted), ASCII only, <, > and & escaped
    cells = [{"metadata": {"id": "x", "colab_type": "code"}, "cell_type": "code",
              "source": ["import tensorflow as tf\n", "y = x.numpy() if a > 0 else 1  # é & <b>\n"],
              "execution_count": 0, "outputs": []}]
    text = json.dumps({"cells": cells, "metadata": {"colab": {"name": "a<b>.ipynb"}}, "nbformat": 4,
                       "nbformat_minor": 0}, indent=2, ensure_ascii=True)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026") + "\n"
    nb.write_text(text, encoding="utf-8")
    code, out, _ = run(capsys, "--no-cache", "--fix", "nb.ipynb")
    assert "fix not applied" not in out
    assert nb.read_text(encoding="utf-8") == text.replace("x.numpy()", "x")


def test_unreproducible_layout_is_linted_not_fixed(nb: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    cells = [_cell("code", ["import tensorflow as tf\n", "y = x.numpy()\n"])]
    text = _write(nb, cells).replace('"cells": [', '"cells":   [')
    nb.write_text(text, encoding="utf-8")
    code, out, _ = run(capsys, "--no-cache", "--fix", "nb.ipynb")
    assert code == 1 and nb.read_text(encoding="utf-8") == text
    assert "nb.ipynb: fix not applied: cannot write the fixes into the notebook: its JSON layout" in out
    assert "nb.ipynb:cell 1:2:6: XLA301" in out


def test_invalid_json_is_one_line_naming_the_file(nb: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    nb.write_text('{"cells": [ import tensorflow', encoding="utf-8")
    code, out, err = run(capsys, "--no-cache")
    assert code == 1 and err == ""
    assert "nb.ipynb:1:1: error: cannot read notebook: invalid JSON at line 1 column 13" in out


def test_non_python_kernels_are_skipped(nb: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    data = json.loads(nb.read_text(encoding="utf-8"))
    data["metadata"] = {"language_info": {"name": "R"}, "kernelspec": {"language": "R"}}
    nb.write_text(json.dumps(data), encoding="utf-8")
    result = api.check_paths(["nb.ipynb"])
    assert result.files[0].skipped and not result.diagnostics


def test_noqa_in_a_cell_and_syntax_errors_get_cell_positions(nb: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    cells = [_cell("code", "import tensorflow as tf\ny = x.numpy()  # noqa: XLA301\n"), _cell("code", "def f(:\n")]
    _write(nb, cells)
    code, out, _ = run(capsys, "--no-cache")
    assert code == 1 and "XLA301" not in out
    assert "nb.ipynb:cell 2:1:7: error: syntax error" in out
