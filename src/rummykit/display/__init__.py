"""Cards and words as people read them, shared by the faces."""
