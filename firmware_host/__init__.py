"""The reedboard daemon and its commands. Knows no game and no chip by name."""
