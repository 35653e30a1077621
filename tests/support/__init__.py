"""Helpers shared across test folders: the clock, fixture modules, fake servers, file makers.

Fixtures defined here are registered by the conftest.py of the folder that uses them
(tests/conftest.py, tests/app/conftest.py); tests never import a fixture by name.
"""
