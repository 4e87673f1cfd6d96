"""Atomic writes leave either the complete file or nothing; metadata round-trips."""

import pandas as pd
import pytest

from regretlab.core.io import (
    atomic_path,
    config_hash,
    read_parquet_metadata,
    run_metadata,
    write_json,
    write_parquet,
)


def test_failed_write_leaves_nothing(tmp_path):
    target = tmp_path / "out.txt"
    with pytest.raises(RuntimeError), atomic_path(target) as tmp:
        tmp.write_text("partial")
        raise RuntimeError("interrupted")
    assert not target.exists()
    assert list(tmp_path.iterdir()) == []


def test_failed_rewrite_keeps_the_old_file(tmp_path):
    target = tmp_path / "out.json"
    write_json(target, {"a": 1})
    with pytest.raises(RuntimeError), atomic_path(target) as tmp:
        tmp.write_text("{")
        raise RuntimeError("interrupted")
    assert target.read_text() == '{\n  "a": 1\n}\n'


def test_parquet_metadata_round_trip(tmp_path):
    frame = pd.DataFrame({"t": [1, 2], "x": [0.5, 1.5]})
    meta = run_metadata({"k": 1}, wall_time_s=1.25)
    write_parquet(tmp_path / "f.parquet", frame, meta)
    assert read_parquet_metadata(tmp_path / "f.parquet") == meta
    assert pd.read_parquet(tmp_path / "f.parquet").equals(frame)
    assert set(meta) == {"regretlab_version", "git_commit", "config_hash", "wall_time_s"}


def test_parquet_bytes_are_reproducible(tmp_path):
    frame = pd.DataFrame({"t": [1, 2], "x": [0.5, 1.5]})
    write_parquet(tmp_path / "a.parquet", frame, {"h": config_hash({"a": 1})})
    write_parquet(tmp_path / "b.parquet", frame, {"h": config_hash({"a": 1})})
    assert (tmp_path / "a.parquet").read_bytes() == (tmp_path / "b.parquet").read_bytes()


def test_config_hash_ignores_key_order():
    assert config_hash({"a": 1, "b": [2]}) == config_hash({"b": [2], "a": 1})
    assert config_hash({"a": 1}) != config_hash({"a": 2})


def test_written_files_get_the_usual_permissions(tmp_path):
    write_json(tmp_path / "a.json", {})
    assert (tmp_path / "a.json").stat().st_mode & 0o644 == 0o644


def test_stacked_run_frames_start_with_the_key_columns():
    from regretlab.core.io import RUN_KEYS, stack_run_frames

    frames = [pd.DataFrame({"seed": [s, s], "t": [1, 2], "x": [0.0, 1.0]}) for s in (0, 1)]
    runs = stack_run_frames(frames, regime="r", instance="i", algorithm="a", constants="paper", T=2)
    assert list(runs.columns) == [*RUN_KEYS, "seed", "t", "x"]
    assert len(runs) == 4 and (runs["T"] == 2).all() and list(runs.index) == [0, 1, 2, 3]
