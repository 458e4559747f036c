"""The phases of a hand (ARCHITECTURE.md §2): draw, then play, then the next draw or over."""

DRAW_PHASE = "draw"
PLAY_PHASE = "play"
OVER_PHASE = "over"
