"""`python -m civrules.cli` runs the command line, as `python -m civrules` and `civrules` do.

Without this module the package `civrules.cli` ran as a script would import and exit silently.
"""

from civrules.cli import main

main()
