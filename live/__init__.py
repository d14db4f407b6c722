"""Live play: rooms where people and computer players play a game on the platform."""
