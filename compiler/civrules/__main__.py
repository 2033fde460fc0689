"""`python -m civrules` runs the command line.

Python puts the working directory first on ``sys.path`` for ``-m``: a `yaml.py`, a `click.py` or a
`*.dist-info` folder declaring a family in it would be imported by civrules (README: civrules never
executes anything from the tree it checks). It is taken off before anything else is imported, as
``python -P`` would (civrules itself was found already; its modules are found through its package).

Started by a Python that lacks civrules' dependencies (`python3 -m civrules` in a clone before
`make`), or interrupted while it starts, it reports that as a diagnostic (civrules.launch).
"""

import os
import sys

if not sys.flags.safe_path and sys.path:
    here: str | None
    try:
        here = os.getcwd()
    except OSError:  # the working directory is gone: nothing can be imported from it either
        here = None
    first = sys.path[0]
    if first in ("", os.curdir) or (here is not None and os.path.abspath(first) == here):
        del sys.path[0]

from civrules.launch import main

main()
