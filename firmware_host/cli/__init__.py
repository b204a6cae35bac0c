"""The ``reedboard`` command: its parser (``main``) and each subcommand with the loop it runs:
``run`` (``run``: the wall-clock loop with its page and network, and ``daemon_cli``: the run,
replay, setup and export commands' arguments), ``setup``,
``ai``, ``doctor`` and ``plan``."""
