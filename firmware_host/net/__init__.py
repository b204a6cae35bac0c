"""The board on the network: its own page (``web``: the simulated board, a phone's view of the
real one, /watch), the café network over MQTT (``mqtt``: each board on the broker, board-to-board
play, Home Assistant) and the café dashboard (``cafe``), all off the scan loop."""
