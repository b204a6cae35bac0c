"""League nights: players, events, pairings, results, standings and ratings (docs/league.md).

Pure logic (:mod:`.model`, :mod:`.pairing`, :mod:`.standings`, :mod:`.ratings`) and its store
in the café archive's database (:mod:`.store`); the command is ``reedboard league``
(firmware_host/cli/league.py), the dashboard's pages are firmware_host/net/cafe/league_web.py.
"""
