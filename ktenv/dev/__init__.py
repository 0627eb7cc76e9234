"""Developer tools that span the games: the package layout (`layout`) and the one command that regenerates
every derived file (`regenerate`). Each game's own tools are in its ``dev/`` folder. Nothing here is
imported at run time."""
