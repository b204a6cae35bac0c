"""Developers' tools, run from the repository's root as modules (``python -m tools.importgraph``)."""
