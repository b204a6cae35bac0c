"""What the daemon reads from its files and keeps on them: the config and the layouts
(``config``, ``layout``, ``tomlfile``, ``plaintoml``), the games in SQLite (``storage``; ``wal`` finds a
damaged log, ``dblock`` keeps one daemon per file), and game records as text in each game's
notation (``records`` reads them, ``export`` writes them), and time controls with the game
clocks as values (``timecontrol``)."""
