"""A run's progress as arrays and JSON, never as pickle: what :mod:`regretlab.core.snapshots` writes.

A snapshot holds the object graph a simulation loop needs to go on: dicts, lists and tuples, numpy arrays and
scalars, numpy ``Generator`` s, the per-seed ``pandas.DataFrame`` s already finished, and the package's own
objects (learners, their typed ``NamedTuple`` s, trackers, instances, enums). :func:`encode` turns it into a
JSON tree and a list of plain arrays; :func:`decode` rebuilds it. Reading never runs code that the file
names: arrays are read with ``allow_pickle=False`` (no object arrays), a class is looked up only in the
``regretlab`` package (:func:`_package_class`) and rebuilt without calling its ``__init__`` (its attributes
are set directly), and a bit generator only from :data:`BIT_GENERATORS`. Anything else is refused at
*save* time (:class:`UnsupportedState`), so a learner with a field of a new type fails its snapshot tests
instead of writing a file that cannot be read back.

Every non-primitive value is a JSON list ``[tag, …]``; ``None``, booleans, numbers and strings are stored as
themselves (floats exactly: Python's JSON writes the shortest repr, NaN and infinities included). An object
met twice (the same ``id``) is stored once and referenced (``["ref", n]``), so aliases stay aliases, as they
did under pickle.
"""

from __future__ import annotations

import enum
import importlib
from typing import Any

import numpy as np
import pandas as pd

#: The bit generators a snapshot may name (numpy's own; the workflow uses PCG64 through SeedSequence).
BIT_GENERATORS = ("PCG64", "PCG64DXSM", "Philox", "SFC64", "MT19937")
_PACKAGE = "regretlab"


class UnsupportedState(TypeError):
    """A value the codec cannot store (a type outside the list in the module docstring)."""


class CorruptState(ValueError):
    """A stored tree that is not one :func:`encode` writes (a damaged or forged file)."""


def encode(value: Any) -> tuple[Any, list[np.ndarray]]:
    """``value`` as ``(tree, arrays)``: a JSON-serialisable tree and the arrays it refers to by position."""
    encoder = _Encoder()
    return encoder.node(value), encoder.arrays


def decode(tree: Any, arrays: list[np.ndarray]) -> Any:
    """The value :func:`encode` was given, rebuilt from its ``tree`` and ``arrays``."""
    return _Decoder(arrays).node(tree)


def _qualified(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


def _package_class(name: str) -> type:
    """The class ``module:qualname`` of the regretlab package; nothing outside it is ever imported."""
    if not isinstance(name, str) or ":" not in name:
        raise CorruptState(f"not a class name: {name!r}")
    module_name, qualname = name.split(":", 1)
    if module_name != _PACKAGE and not module_name.startswith(_PACKAGE + "."):
        raise CorruptState(f"a class outside the {_PACKAGE} package: {name}")
    found: Any = importlib.import_module(module_name)
    for part in qualname.split("."):
        found = getattr(found, part, None)
    if not isinstance(found, type):
        raise CorruptState(f"no class {name}")
    return found


def _is_namedtuple(value: Any) -> bool:
    return isinstance(value, tuple) and hasattr(type(value), "_fields")


class _Encoder:
    def __init__(self) -> None:
        self.arrays: list[np.ndarray] = []
        self._seen: dict[int, int] = {}
        self._alive: list[Any] = []  # keeps every memoised object alive, so no id is reused while encoding
        self._open: set[int] = set()

    def node(self, value: Any) -> Any:
        if isinstance(value, enum.Enum):  # before str and int: a StrEnum is a str
            return ["enum", self._class(type(value)), value.name]
        if value is None or type(value) in (bool, int, float, str):
            return value
        if isinstance(value, np.generic):
            if value.dtype.kind not in "biuf":
                raise UnsupportedState(f"a numpy scalar of dtype {value.dtype}")
            return ["scalar", value.dtype.str, value.item()]
        key = id(value)
        if key in self._seen:
            if key in self._open:
                raise UnsupportedState(f"a cycle through a {type(value).__name__}")
            return ["ref", self._seen[key]]
        number = self._seen[key] = len(self._seen)
        self._alive.append(value)
        self._open.add(key)
        try:
            return [*self._compound(value, number)]
        finally:
            self._open.discard(key)

    def _compound(self, value: Any, number: int) -> list:
        if type(value) is np.ndarray:
            if value.dtype.hasobject or value.dtype.kind not in "biufU":
                raise UnsupportedState(f"an array of dtype {value.dtype}")
            self.arrays.append(value)
            return ["array", number, len(self.arrays) - 1, bool(value.flags.writeable)]
        if type(value) is dict:
            return ["dict", number, [[self.node(k), self.node(v)] for k, v in value.items()]]
        if type(value) is list:
            return ["list", number, [self.node(v) for v in value]]
        if type(value) is tuple:
            return ["tuple", number, [self.node(v) for v in value]]
        if _is_namedtuple(value):
            return ["namedtuple", number, self._class(type(value)), [self.node(v) for v in value]]
        if isinstance(value, np.random.Generator):
            state = value.bit_generator.state
            if state.get("bit_generator") not in BIT_GENERATORS:
                raise UnsupportedState(f"a bit generator {state.get('bit_generator')!r}")
            return ["generator", number, self.node(state)]
        if type(value) is pd.DataFrame:
            return ["frame", number, self._frame(value)]
        if hasattr(value, "__dict__") and not hasattr(type(value), "__slots__"):
            attributes = vars(value)
            if not all(isinstance(name, str) for name in attributes):
                raise UnsupportedState(f"a {type(value).__name__} with non-string attribute names")
            stored = {k: self.node(v) for k, v in attributes.items()}
            return ["object", number, self._class(type(value)), stored]
        raise UnsupportedState(f"a value of type {type(value).__module__}.{type(value).__qualname__}")

    def _class(self, cls: type) -> str:
        name = _qualified(cls)
        try:
            found = None if "<locals>" in name else _package_class(name)
        except CorruptState as error:
            raise UnsupportedState(str(error)) from None
        if found is not cls:
            raise UnsupportedState(f"a class that cannot be found again by its name: {name}")
        return name

    def _frame(self, frame: pd.DataFrame) -> dict:
        if not isinstance(frame.index, pd.RangeIndex):
            raise UnsupportedState("a DataFrame without a RangeIndex")
        columns = []
        for name in frame.columns:
            column = frame[name]
            if not isinstance(name, str):
                raise UnsupportedState(f"a DataFrame column named {name!r}")
            if isinstance(column.dtype, np.dtype) and column.dtype.kind in "biuf":
                columns.append([name, None, self.node(column.to_numpy(copy=True))])
            elif column.map(type).eq(str).all():
                columns.append([name, str(column.dtype), self.node(column.tolist())])
            else:
                raise UnsupportedState(f"a DataFrame column {name!r} of dtype {column.dtype}")
        index = frame.index
        return {
            "index": [index.start, index.stop, index.step],
            "columns": columns,
            "attrs": self.node(dict(frame.attrs)),
        }


class _Decoder:
    def __init__(self, arrays: list[np.ndarray]) -> None:
        self._arrays = arrays
        self._made: dict[int, Any] = {}

    def node(self, tree: Any) -> Any:
        if tree is None or isinstance(tree, bool | int | float | str):
            return tree
        if not isinstance(tree, list) or not tree or not isinstance(tree[0], str):
            raise CorruptState(f"not a stored value: {str(tree)[:60]}")
        tag = tree[0]
        if tag == "scalar":
            return np.dtype(tree[1]).type(tree[2])
        if tag == "enum":
            cls = _package_class(tree[1])
            if not issubclass(cls, enum.Enum):
                raise CorruptState(f"{tree[1]} is not an enum")
            return cls[tree[2]]
        if tag == "ref":
            if tree[1] not in self._made:
                raise CorruptState(f"a reference to {tree[1]} before its value")
            return self._made[tree[1]]
        builder = getattr(self, f"_{tag}", None)
        if builder is None or len(tree) < 3 or not isinstance(tree[1], int):
            raise CorruptState(f"an unknown entry {tag!r}")
        value = builder(*tree[2:])
        self._made[tree[1]] = value
        return value

    def _array(self, position: int, writeable: bool) -> np.ndarray:
        array = self._arrays[position]
        array.flags.writeable = bool(writeable)
        return array

    def _dict(self, items: list) -> dict:
        return {self.node(k): self.node(v) for k, v in items}

    def _list(self, items: list) -> list:
        return [self.node(v) for v in items]

    def _tuple(self, items: list) -> tuple:
        return tuple(self.node(v) for v in items)

    def _namedtuple(self, name: str, items: list) -> tuple:
        cls = _package_class(name)
        if not (issubclass(cls, tuple) and hasattr(cls, "_fields")):
            raise CorruptState(f"{name} is not a NamedTuple")
        return cls._make(self.node(v) for v in items)

    def _generator(self, state: Any) -> np.random.Generator:
        decoded = self.node(state)
        name = decoded.get("bit_generator") if isinstance(decoded, dict) else None
        if name not in BIT_GENERATORS:
            raise CorruptState(f"a bit generator {name!r}")
        bit_generator = getattr(np.random, name)()
        bit_generator.state = decoded
        return np.random.Generator(bit_generator)

    def _frame(self, stored: dict) -> pd.DataFrame:
        start, stop, step = stored["index"]
        data = {}
        for name, dtype, values in stored["columns"]:
            decoded = self.node(values)
            data[name] = decoded if dtype is None else pd.array(decoded, dtype=dtype)
        frame = pd.DataFrame(data, index=pd.RangeIndex(start, stop, step))
        frame.attrs.update(self.node(stored["attrs"]))
        return frame

    def _object(self, name: str, attributes: dict) -> Any:
        cls = _package_class(name)
        if issubclass(cls, tuple | enum.Enum) or not isinstance(attributes, dict):
            raise CorruptState(f"{name} is not a plain object")
        value = object.__new__(cls)
        value.__dict__.update({k: self.node(v) for k, v in attributes.items()})
        return value

