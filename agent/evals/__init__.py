"""Evals: the agent's behaviour, proven layer by layer.

The code lives here (so the installed ``richeng`` CLI can run it); the data — case files and
the known-issue list — lives in the repository's top-level ``evals/`` folder. Offline cases
replay a scripted model through the real runtime and prove code paths only; live cases run a
real model and are the only evidence of model behaviour. See docs/evals.md.
"""
