"""Bandits with graph feedback (paper 001): loss environments, OMD steps, algorithms, simulation, bounds."""
