"""One module (or small package) per game, each holding all of that game's rules and
exporting them as ``RULES``; ``evaluators.registry`` gathers them."""
