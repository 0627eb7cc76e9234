"""Developer tools for Kingsburg: the golden playthroughs (`playthrough`). Nothing here is imported at run time.

`DERIVED`: the files this game derives from its code (see `ktenv.kings_and_things.dev` for the shape).
"""

DERIVED = (
    ("golden playthroughs", "ktenv.kingsburg.dev.playthrough", ["--regenerate"], ["--check"], True),
)
