"""The rules engine: cards, melds, moves, one hand, a match, records and views."""
