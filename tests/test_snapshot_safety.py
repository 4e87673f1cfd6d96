"""A snapshot file is data, never code (regretlab.core.state_codec, regretlab.core.snapshots): a planted
pickle is never unpickled, a forged tree cannot name a class outside the package, and a foreign, truncated or
old-format snapshot is ignored with one log line; the run then ends with a clean run's rows."""

from __future__ import annotations

import io
import json
import logging
import pickle
import shutil
import zipfile

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from test_snapshots import SEEDS, assert_same, bandit_run, killed_and_resumed, policy

from regretlab.core import state_codec
from regretlab.core.snapshots import Snapshot, read_snapshot, write_snapshot
from regretlab.graphs.observability import Observability

ALGORITHM, SPEC = "exp3g", "strongly_observable"
BANDIT_T = 20_000


class Marker:
    """Unpickling this creates ``path``: the proof that a file ran code."""

    def __init__(self, path):
        self.path = str(path)

    def __reduce__(self):
        return (open, (self.path, "w"))


def snapshot_of(root, regime="snap", seeds=SEEDS) -> Snapshot:
    return Snapshot(policy(root), regime, ALGORITHM, "paper", SPEC, BANDIT_T, seeds, {"regime": "config"})


@pytest.fixture(scope="module")
def clean():
    return bandit_run(ALGORITHM, SPEC, None)


def object_array_npz(marker) -> bytes:
    """A ``.npz`` whose one entry is an object array: numpy stores it as a pickle."""
    stream = io.BytesIO()
    np.savez(stream, tree=np.array([Marker(marker)], dtype=object))
    return stream.getvalue()


@pytest.mark.parametrize("where", ["old pickle name", "snapshot name", "object array in the snapshot"])
def test_a_planted_file_is_never_unpickled(where, tmp_path, clean, caplog):
    marker = tmp_path / "code-ran"
    snapshot = snapshot_of(tmp_path / "snaps")
    if where == "old pickle name":
        target = snapshot.path.with_name(snapshot.path.name.replace(".snapshot.npz", ".pickle"))
        payload = pickle.dumps(Marker(marker))
    elif where == "snapshot name":
        target, payload = snapshot.path, pickle.dumps(Marker(marker))
    else:
        target, payload = snapshot.path, object_array_npz(marker)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(payload)
    with caplog.at_level(logging.INFO, logger="regretlab.core.snapshots"):
        resumed = bandit_run(ALGORITHM, SPEC, snapshot_of(tmp_path / "snaps"))
    assert not marker.exists(), "a planted file ran code"
    # Gone, or replaced by this run's own snapshot (the run snapshots at every chunk end here).
    assert not target.exists() or read_snapshot(target)[0] == snapshot.identity
    assert str(target) in caplog.text and "resuming" not in caplog.text
    assert_same(resumed, clean)


def test_a_foreign_snapshot_renamed_to_this_runs_key_is_not_resumed(monkeypatch, tmp_path, clean, caplog):
    # A valid snapshot of another regime's run, moved under this run's name.
    other_identity = ("other", ALGORITHM, "paper", SPEC, BANDIT_T, SEEDS)
    _, other = killed_and_resumed_and_kept(monkeypatch, tmp_path / "other", other_identity)
    mine = snapshot_of(tmp_path / "snaps")
    mine.path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(other, mine.path)
    with caplog.at_level(logging.INFO, logger="regretlab.core.snapshots"):
        resumed = bandit_run(ALGORITHM, SPEC, snapshot_of(tmp_path / "snaps"))
    assert "belongs to another run" in caplog.text and "resuming" not in caplog.text
    assert_same(resumed, clean)


def killed_and_resumed_and_kept(monkeypatch, root, identity):
    """A real snapshot of ``identity``'s run (killed after its third save), copied aside before the resume
    deletes it."""
    copies = []
    load = Snapshot.load

    def keep_then_load(self):
        if self.path.is_file():
            copies.append(root / "copy.npz")
            shutil.copyfile(self.path, copies[-1])
        return load(self)

    monkeypatch.setattr(Snapshot, "load", keep_then_load)
    result = killed_and_resumed(monkeypatch, root, lambda s: bandit_run(ALGORITHM, SPEC, s), 3, identity)
    monkeypatch.setattr(Snapshot, "load", load)
    return result, copies[-1]


def test_a_truncated_snapshot_is_ignored(monkeypatch, tmp_path, clean, caplog):
    identity = ("snap", ALGORITHM, "paper", SPEC, BANDIT_T, SEEDS)
    _, whole = killed_and_resumed_and_kept(monkeypatch, tmp_path / "first", identity)
    mine = snapshot_of(tmp_path / "snaps")
    mine.path.parent.mkdir(parents=True, exist_ok=True)
    mine.path.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    with caplog.at_level(logging.INFO, logger="regretlab.core.snapshots"):
        resumed = bandit_run(ALGORITHM, SPEC, snapshot_of(tmp_path / "snaps"))
    assert f"ignored and removed snapshot {mine.path}" in caplog.text
    assert_same(resumed, clean)


@pytest.mark.parametrize(
    "name",
    ["os:system", "subprocess:Popen", "builtins:eval", "regretlab.core.io:os.system", "regretlab:__loader__"],
)
def test_a_forged_tree_cannot_name_a_class_outside_the_package(name, tmp_path):
    identity = ["run"]
    for tree in (["object", 0, name, {}], ["namedtuple", 0, name, []], ["enum", name, "X"]):
        document = {"format": 1, "identity": identity, "state": tree}
        path = tmp_path / "forged.npz"
        with open(path, "wb") as stream:
            np.savez(stream, tree=np.frombuffer(json.dumps(document).encode(), dtype=np.uint8))
        with pytest.raises(state_codec.CorruptState):
            read_snapshot(path)


def test_the_codec_refuses_what_it_cannot_store_at_save_time(tmp_path):
    class Local:
        pass

    for value in ({1, 2}, Local(), np.array([object()], dtype=object), [pd.Timestamp(0)], b"bytes"):
        with pytest.raises(state_codec.UnsupportedState):
            write_snapshot(tmp_path / "x.npz", ["run"], {"value": value})
        assert not (tmp_path / "x.npz").exists()
    cycle: list = []
    cycle.append(cycle)
    with pytest.raises(state_codec.UnsupportedState, match="cycle"):
        state_codec.encode(cycle)


leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=5),
    st.sampled_from(list(Observability)),
    hnp.arrays(
        st.sampled_from([np.float64, np.int64, np.bool_, np.int32, np.uint8]),
        hnp.array_shapes(min_dims=0, max_dims=3, max_side=3),
    ),
    st.floats(allow_nan=False).map(np.float64),
    st.integers(-100, 100).map(np.int64),
)
trees = st.recursive(
    leaves,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.lists(children, max_size=4).map(tuple),
        st.dictionaries(st.one_of(st.text(max_size=4), st.integers(-5, 5)), children, max_size=4),
    ),
    max_leaves=20,
)


def same(a, b) -> bool:
    """Equal values of equal types, NaN equal to NaN, arrays by dtype, shape, bytes and writeability."""
    if type(a) is not type(b):
        return False
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes() and (
            a.flags.writeable == b.flags.writeable
        )
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float | np.floating):
        return np.isnan(a) and np.isnan(b) or a == b and np.signbit(a) == np.signbit(b)
    return a == b


@given(trees)
def test_the_codec_round_trips_through_a_snapshot_file(tmp_path_factory, value):
    path = tmp_path_factory.mktemp("codec") / "s.npz"
    write_snapshot(path, ["run", 1], {"value": value})
    identity, state = read_snapshot(path)
    assert identity == ["run", 1]
    assert same(state["value"], value)
    assert zipfile.is_zipfile(path)


def test_aliases_stay_aliases():
    shared = np.arange(3.0)
    shared.flags.writeable = False
    tree, arrays = state_codec.encode({"a": shared, "b": [shared], "frame": pd.DataFrame({"x": [1.0, 2.0]})})
    decoded = state_codec.decode(json.loads(json.dumps(tree)), arrays)
    assert decoded["a"] is decoded["b"][0] and not decoded["a"].flags.writeable
    pd.testing.assert_frame_equal(decoded["frame"], pd.DataFrame({"x": [1.0, 2.0]}), check_exact=True)


def test_each_snapshot_logs_where_the_run_is(tmp_path, caplog):
    """Issue 36: a long run's log gets one line per snapshot (seed, t of T, speed, time left), not only one
    when the whole run ends."""
    with caplog.at_level(logging.INFO, logger="regretlab.core.snapshots"):
        bandit_run(ALGORITHM, SPEC, snapshot_of(tmp_path / "snaps"))
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("snapshot: ")]
    assert lines and lines[0].startswith("snapshot: seed 0 (0 of 2 done), t = 1 of T = 20000 (0.0 %), ")
    assert "snapshot: seed 0 (0 of 2 done), t = 8192 of T = 20000 (41.0 %)" in "\n".join(lines)
    assert lines[-1].startswith("snapshot: seed 1 (1 of 2 done), t = ")
    assert all("per second, about " in line and " left for this seed" in line for line in lines)
