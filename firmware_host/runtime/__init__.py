"""A board's controller put together and run: from a config and the saved game (``session``),
on a virtual clock from a file of sensor events (``replay``), and what the run loop tells
systemd and asks of the machine (``service``, ``notify``). The wall-clock loop itself is
``firmware_host.cli.daemon`` (``reedboard run``)."""
