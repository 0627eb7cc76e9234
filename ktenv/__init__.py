"""ktenv: a research environment and bot arena for the board game Kings & Things."""

__version__ = "0.1.0"
