"""The games. Each lives in its own package and registers its id here.

>>> from robotable import games
>>> "tf22-reload" in games.available()
True
"""

from robotable.core.registry import available, load, register

register("tf22-reload", "robotable.games.tf22_reload:GAME")
register("twin-tin-bots", "robotable.games.twin_tin_bots:GAME")
register("robots-on-the-line", "robotable.games.robots_on_the_line:GAME")

__all__ = ["available", "load"]
