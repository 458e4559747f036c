"""Contract Rummy: contracts, jokers, several decks, digs and swaps."""
