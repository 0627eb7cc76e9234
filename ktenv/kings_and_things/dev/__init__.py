"""Developer tools for Kings & Things: the differential runner (`diff`), the native header generator
(`gen`), the generated parts of the docs (`docs`), random-game fuzzing (`fuzz`), the golden playthroughs
(`playthrough`) and the power-use audit (`power_use`). Nothing here is imported at run time.

`DERIVED` lists the files this game derives from its code, in the order `python -m ktenv.dev.regenerate`
makes them: (what, module, arguments that write it, arguments that check it, whether the native core
must be rebuilt before it).
"""

DERIVED = (
    ("native header", "ktenv.kings_and_things.dev.gen", [], ["--check"], False),
    ("generated docs", "ktenv.kings_and_things.dev.docs", [], ["--check"], True),
    ("golden playthroughs", "ktenv.kings_and_things.dev.playthrough", ["--regenerate"], ["--check"], True),
)
