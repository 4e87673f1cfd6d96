"""The evidence table: one row per claim of :data:`regretlab.registry.claims.CLAIMS` (and a row with its
reason for each claim of :data:`regretlab.registry.claims.UNCHECKED_CLAIMS`), computed from the aggregate
tables.

For each claim (docs/evidence.md explains every column):

* its *items*: the aggregate rows (points) of its explicit bounds and the exponent fits (curves) of its
  rates. An item is **testable** when its runs are not bit-identical to another curve family's
  (``identical_to``), the theorem's hypotheses hold there, the check could have failed — an explicit bound's
  verdict is ``holds`` or ``violated`` (not ``vacuous``, ``implied`` or ``rate only``); a rate's curve has a
  fitted slope with an interval and its drawn rate grows at the theory's exponent over the curve
  (``bound_regime`` ``asymptotic``) —, the claim's mechanism is exercised (:class:`regretlab.registry.claims.
  Mechanism`), and it has **power**: a learner that does not learn would have failed it
  (:func:`.items.point_power`, :func:`.items.curve_power`: uniform play's value ``null_uniform`` above an
  upper bound, uniform play's slope ``null_slope`` outside the band a rate accepts; a lower bound's named
  alternative; a construction check's own verdict);
* ``tested``: at least one testable item; ``power``: the strongest among them (:data:`.items.POWERS`);
  ``outcome``: the verdicts of the testable points, or the slopes of the testable curves against the band
  their rate accepts (``consistent`` or :data:`~regretlab.analysis.exponents.REJECTED`); ``why``: what blocks
  the other items, counted;
* ``T_informative``: the smallest horizon at which one of the claim's curves would pass every check but
  power, and ``T_power``: at which it would also have power, found by evaluating the bound functions and
  uniform play's value (:attr:`regretlab.registry.kinds.Kind.uniform_value`) on the point extrapolated to T
  (:func:`.points.point_at`) on a log grid of T up to :data:`.search.T_MAX` and bisecting the first step;
  with the predicted CPU-hours of one run there (and of the curve's seeds) by the cost model
  (:func:`regretlab.registry.unit_costs.run_seconds`).

Modules: :mod:`~regretlab.analysis.evidence.points` (a row as a point, and extrapolated to another T),
:mod:`~regretlab.analysis.evidence.items` (items, testable or blocked, and their power),
:mod:`~regretlab.analysis.evidence.search` (``T_informative``, ``T_power``),
:mod:`~regretlab.analysis.evidence.table` (the rows, the files) and
:mod:`~regretlab.analysis.evidence.markdown` (the headline and ``figures/evidence.md``).
"""

from regretlab.analysis.evidence.markdown import counts, headline, markdown
from regretlab.analysis.evidence.points import point_at
from regretlab.analysis.evidence.table import CSV_COLUMNS, claim_row, evidence_table, write_evidence_table

__all__ = [
    "CSV_COLUMNS",
    "claim_row",
    "counts",
    "evidence_table",
    "headline",
    "markdown",
    "point_at",
    "write_evidence_table",
]
