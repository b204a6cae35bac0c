"""What the tests (``tests/``) and the bench scripts (``bench/``) share to drive the daemon as
players, machines and faults do. It imports neither of them.

Players: the board under test (:mod:`testbed.board_under_test`, the one module that touches the
controller), hands that make board changes with noise (:mod:`testbed.hands`), an in-memory
message bus for paired boards (:mod:`testbed.bus`, :mod:`testbed.pair`), the player robot
that follows the board (:mod:`testbed.robot`), and the same robot in the field, playing
``reedboard run --sim`` processes configured as the docs write them (:mod:`testbed.field`).

Machines: a real Mosquitto and boards on it (:mod:`testbed.broker`), a throw-away PostgreSQL
cluster (:mod:`testbed.postgres`), the board's firmware in the AVR emulator
(:mod:`testbed.firmware_emulator`) or its Python stand-in at the end of a serial line
(:mod:`testbed.serial_ends`), buses and devices that record what the drivers send
(:mod:`testbed.recorders`).

Faults and waiting: a card that turns read-only, exceptions raised in a running thread, free
ports, polling (:mod:`testbed.tools`).

The test suite finds it from the repository's root (pytest's ``pythonpath``); the bench scripts
run from there as modules (``python -m bench.robot``)."""
