"""Layered loop-free CMDPs, occupancy measures and the UC-O-GDPS building blocks of paper 000."""
