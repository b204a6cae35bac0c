"""The ``reedboard`` command: its parser (``main``) and each subcommand with the loop it runs:
``run`` (``daemon``, the wall-clock loop, and ``daemon_cli``: run, replay, export), ``setup``,
``ai``, ``doctor`` and ``plan``."""
