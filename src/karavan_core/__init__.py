"""Karavan's rules engine: four camel-caravan card games behind one contract.

Pure Python (attrs + cattrs); it never imports the terminal libraries.
"""

from karavan_core.engine import Action, Game, IllegalAction, Observation, Result, State
from karavan_core.match import Match, Seat
from karavan_core.registry import all_games, game_names, get_game
from karavan_core.rng import Rng
from karavan_core.saves import SaveError, load_match, save_match
from karavan_core.version import __version__

__all__ = [
    "Action",
    "Game",
    "IllegalAction",
    "Match",
    "Observation",
    "Result",
    "Rng",
    "SaveError",
    "Seat",
    "State",
    "__version__",
    "all_games",
    "game_names",
    "get_game",
    "load_match",
    "save_match",
]
