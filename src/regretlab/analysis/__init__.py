"""Analysis shared by every regime: aggregation over seeds, bootstrap intervals, exponent fits, figures."""
