"""rummykit: exact, fast Rummy rules (every registered family), records and bots.

>>> import random
>>> from rummykit import BASIC, HandState, view
>>> state = HandState.deal(BASIC, num_players=2, dealer=0, rng=random.Random(7))
>>> state.play("draw")
Draw()
>>> len(view(state, state.to_move).hand_cards)
11
"""

from rummykit.core.cards import Card, format_card, format_cards, parse_card, parse_cards
from rummykit.core.engine import HandState
from rummykit.core.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    NotationError,
    RecordError,
    RummyError,
)
from rummykit.core.match import Match, SeatResult
from rummykit.core.melds import best_arrangement, make_meld, min_deadwood
from rummykit.core.moves import Discard, Draw, LayOff, Meld, Move, Swap, Take, parse_move
from rummykit.core.outcome import HandResult
from rummykit.core.rules import Rules, find_rules
from rummykit.core.views import PlayerView, resample, view
from rummykit.variants import BASIC, CONTRACT, TRADITIONAL
from rummykit.variants.gin.registration import GIN_FAMILY

__version__ = "0.1.0"

__all__ = [
    "BASIC", "CONTRACT", "GIN_FAMILY", "TRADITIONAL", "AmbiguousMoveError", "Card", "Discard",
    "Draw",
    "HandResult", "HandState", "IllegalMoveError", "LayOff", "Match", "Meld", "Move",
    "NotationError", "PlayerView", "RecordError", "Rules", "RummyError", "SeatResult", "Swap",
    "Take", "best_arrangement", "find_rules", "format_card", "format_cards", "make_meld",
    "min_deadwood", "parse_card", "parse_cards", "parse_move", "resample", "view",
]
