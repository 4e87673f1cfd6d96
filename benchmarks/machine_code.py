"""Whether every compiled kernel has the same machine code at this checkout as at another commit: the exact
form of "no learner is slower" for a change that should not touch the kernels (a module moved, a contract
typed), where timing two identical programs on a shared machine differs by ±25 % (compare_learners.py).

For each benchmark script (``bench_bandits.py``, ``bench_cmdp.py``, with short horizons), a fresh process per
tree (``--against``'s ``git worktree`` and this checkout, each on its own sources and numba cache) runs the
script, which compiles every kernel it reaches, then dumps the assembly of every numba dispatcher of
regretlab, per signature. Two dumps are compared after :func:`normalise`: symbol names and module paths are
dropped (a moved module renames its kernels' symbols, not their code; so does a renamed NamedTuple, keyed by
its fields), and so are the bytes of the pickled exceptions numba embeds (their traceback names the source
file's path). Prints one JSON object per script:
``value`` the signatures whose code is the same, ``baseline`` the signatures at ``--against``, ``ratio``
their quotient (1: every kernel the same); and one line per signature that differs. Exits 1 if any does.

    python benchmarks/machine_code.py --against 428af7f
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import runpy
import subprocess
import sys
import tempfile
from pathlib import Path

from compare_learners import REPO, worktree  # benchmarks/, the script's own folder

#: Each benchmark script with arguments short enough to compile every kernel it reaches in seconds.
SCRIPTS = {
    "bench_bandits.py": ["--horizon", "2000", "--baseline-rounds", "10", "--arms", "8", "16", "64"],
    "bench_cmdp.py": ["--episodes", "200", "--warmup", "200", "--baseline-episodes", "5",
                      "--run-episodes", "300"],
}  # fmt: skip

_PICKLED = re.compile(r"\.const\.pickle(buf|data)\.[0-9a-f]{40}")
_SYMBOL = re.compile(r"_ZN[0-9A-Za-z_$.]+")
_MODULE = re.compile(r"regretlab(\.\w+)+")
#: The size directive of a string constant that holds a symbol name (its length is the name's).
_SYMBOL_SIZE = re.compile(r'^(\t\.size\t"[^"]*SYMBOL[^"]*"), \d+$')


def normalise(assembly: str) -> str:
    """The assembly with symbol names, module paths and the sizes of strings holding a symbol name replaced by
    placeholders, and the data directives of the pickled constants (exceptions whose traceback names the
    source file) left out."""
    lines, in_pickle = [], False
    for line in assembly.splitlines():
        line = _MODULE.sub("regretlab.MODULE", _SYMBOL.sub("SYMBOL", _PICKLED.sub(r".const.pickle\1", line)))
        line = _SYMBOL_SIZE.sub(r"\1, SIZE", line)
        if line.startswith((".const.picklebuf", ".const.pickledata")):
            in_pickle = True
        elif in_pickle and line.startswith("\t.") and not line.startswith("\t.text"):
            continue
        else:
            in_pickle = False
        lines.append(line)
    return "\n".join(lines)


def signature_text(signature) -> str:
    """A signature (a tuple of numba types) as text, each NamedTuple written as its fields and their types
    rather than its class name, which a rename changes and the machine code does not hold."""
    from numba.core import types

    def text(argument) -> str:
        if isinstance(argument, types.BaseNamedTuple):
            pairs = zip(argument.fields, argument.types, strict=True)
            fields = ", ".join(f"{field}: {text(t)}" for field, t in pairs)
            return f"namedtuple({fields})"
        return str(argument)

    if isinstance(signature, str):
        return signature
    return "(" + ", ".join(text(argument) for argument in signature) + ")"


def kernel_key(module: str, name: str, signature) -> str:
    """A kernel's name across a move: its module's last component, its name and its signature
    (:func:`signature_text`)."""
    return _MODULE.sub("regretlab.MODULE", f"{module.rsplit('.', 1)[-1]}.{name}{signature_text(signature)}")


def dump(script: str, args: list[str], out: Path) -> None:
    """Run ``script`` (its output discarded), then write every compiled regretlab kernel's normalised
    assembly to ``out`` as JSON, by :func:`kernel_key`."""
    sys.argv = [script, *args]
    with contextlib.redirect_stdout(io.StringIO()):
        runpy.run_path(script, run_name="__main__")
    from numba.core.registry import CPUDispatcher

    found = {}
    for name, module in sorted(sys.modules.items()):
        if name.split(".")[0] != "regretlab":
            continue
        for attr, value in sorted(vars(module).items()):
            if isinstance(value, CPUDispatcher) and value.__module__ == name:
                for signature in value.signatures:
                    found[kernel_key(name, attr, signature)] = normalise(value.inspect_asm(signature))
    out.write_text(json.dumps(found, sort_keys=True), encoding="utf-8")


def dumped(tree: Path, script: str, cache: Path, out: Path) -> dict[str, str]:
    """:func:`dump` of ``tree``'s ``benchmarks/<script>``, run on ``tree``'s sources in a fresh process."""
    env = {**os.environ, "PYTHONPATH": str(tree / "src"), "XDG_CACHE_HOME": str(cache)}
    command = [sys.executable, __file__, "--dump", str(out), "--script", f"benchmarks/{script}"]
    done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{script} failed on {tree}:\n{done.stderr[-3000:]}")
    return json.loads(out.read_text(encoding="utf-8"))


def compare(reference: dict[str, str], here: dict[str, str]) -> tuple[int, list[str]]:
    """(signatures of ``reference`` with the same code here, the others' keys)."""
    differ = sorted(key for key, code in reference.items() if here.get(key) != code)
    return len(reference) - len(differ), differ


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", help="the commit to compare with (a hash, branch or tag)")
    parser.add_argument("--dump", type=Path, help=argparse.SUPPRESS)  # one tree's side, run by dumped()
    parser.add_argument("--script", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.dump:
        dump(options.script, SCRIPTS[Path(options.script).name], options.dump)
        return
    if not options.against:
        parser.error("--against is required")
    failed = False
    with tempfile.TemporaryDirectory(prefix="regretlab-machine-code-") as work:
        work = Path(work)
        with worktree(options.against, work / "reference") as reference:
            for script in SCRIPTS:
                theirs = dumped(reference, script, work / "cache-ref", work / f"ref-{script}.json")
                ours = dumped(REPO, script, work / "cache-here", work / f"here-{script}.json")
                same, differ = compare(theirs, ours)
                row = {"name": script.removesuffix(".py"), "metric": "same_machine_code", "value": same,
                       "unit": "kernel signatures", "baseline": len(theirs),
                       "ratio": same / max(1, len(theirs))}
                print(json.dumps(row), flush=True)  # fmt: skip
                for key in differ:
                    print(f"differs: {key}", flush=True)
                failed |= bool(differ)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
