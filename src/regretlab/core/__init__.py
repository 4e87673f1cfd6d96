"""The bottom layer, shared by both papers' packages and everything above them: seeded generators
(:mod:`.seeding`), run tables and their metadata (:mod:`.io`), logs, the shared compiled helpers
(:mod:`.kernels`), checkpoint grids, names, the package's source digest and the numba cache keyed by it,
snapshots of interrupted runs and the one run-and-write layer of every kind (:mod:`.run_sets`). Nothing here
imports a layer above it."""
