"""The errors every game and every shared layer raise, defined once so that no game imports another."""


class ConfigError(ValueError):
    """A configuration key or value that cannot be accepted; the message names the key."""


class IllegalActionError(ValueError):
    """An action the current decision does not allow; the state is left unchanged."""


def missing_extra(command: str, extra: str, exc: ModuleNotFoundError) -> ConfigError:
    """The error of a command whose optional dependencies (`extra` of pyproject.toml) are not installed."""
    first = "pip install torch==2.13.0 && " if extra == "train" else ""  # the CPU build, never a CUDA download
    return ConfigError(f"ktenv {command} needs the '{extra}' extra ({exc.name} is missing): "
                       f"{first}pip install -e \".[{extra}]\"")


def did_you_mean(name: str, known) -> str:
    """" (did you mean 'x'?)" for the known names closest to a misspelt one, else ""."""
    import difflib

    close = difflib.get_close_matches(str(name), [str(k) for k in known], n=2, cutoff=0.6)
    return f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""


__all__ = ["ConfigError", "IllegalActionError", "did_you_mean"]
