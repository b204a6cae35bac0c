"""A board's controller put together and run: from a config and the saved game (``session``),
on a virtual clock from a file of sensor events (``replay``), the wall-clock loop of
``reedboard run`` (``loop``), and what it tells systemd and asks of the machine (``service``,
``notify``)."""
