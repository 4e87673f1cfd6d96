"""Feedback graphs of paper 001 (§2): observability, independence number, clique partitions, families."""

from regretlab.graphs.feedback_graph import FeedbackGraph
from regretlab.graphs.graph_numbers import EXACT_MAX_NODES, GraphNumber
from regretlab.graphs.observability import Observability
from regretlab.graphs.summary import describe

__all__ = ["EXACT_MAX_NODES", "FeedbackGraph", "GraphNumber", "Observability", "describe"]
