"""A toy kind of regime: Hedge on full-information Bernoulli losses (docs/add-a-kind.md adds it)."""
