"""What the players see and press at the board itself: the 128x64 OLED's screens
(``screens``), the MENU/OK/BACK menu (``menu``), kiosk mode's idle spells (``kiosk``) and
today's games (``stats``)."""
