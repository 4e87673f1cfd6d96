"""The contracts a kind fills in: an algorithm's registry entry (:mod:`.algorithm_spec`), a bound's
(:mod:`.bound_spec`, with the typed :class:`~.bound_spec.Point` it is evaluated at) and a kind's
(:mod:`.kind_spec`). Data only: the kinds' packages import these, never the other way round."""
