"""The phases of a game of Robots on the Line: a turn, picking 3 new tiles after a sale (house rule),
and the game over."""

TURN, PICK, OVER = "turn", "pick", "over"
PHASES = (TURN, PICK, OVER)
