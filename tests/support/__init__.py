"""What the tests and the bench share to play the daemon as players do: the board under test
(:mod:`tests.support.board`, the one module that touches the controller), hands that make board
changes with noise (:mod:`tests.support.hands`), an in-memory message bus for paired boards
(:mod:`tests.support.bus`) and the player robot that follows the board
(:mod:`tests.support.robot`)."""
