"""Robustness scripts (issue 11): noisy sensors, serial abuse, bad input, soak, power cuts.

Each is a seeded, repeatable script printing a table and, as its last line, one JSON object of
figures; ``--quick`` runs a short version. ``tests/robustness/`` runs a short one of each.
"""
