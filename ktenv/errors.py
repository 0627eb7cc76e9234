"""The errors every game and every shared layer raise, defined once so that no game imports another."""


class ConfigError(ValueError):
    """A configuration key or value that cannot be accepted; the message names the key."""


class IllegalActionError(ValueError):
    """An action the current decision does not allow; the state is left unchanged."""


__all__ = ["ConfigError", "IllegalActionError"]
