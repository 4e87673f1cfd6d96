"""What the product knows, collected from the kinds' packages: the kinds (:mod:`.kinds`), every bound with
its ceilings and trivial bounds (:mod:`.theory`), the claims the evidence table checks (:mod:`.claims`) and
the measured unit costs of the learners (:mod:`.unit_costs`). Imports the kinds; the analysis and the
workflow import it."""
