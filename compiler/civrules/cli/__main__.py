"""`python -m civrules.cli` runs the command line, as `python -m civrules` and `civrules` do.

Without this module the package `civrules.cli` ran as a script would import and exit silently.
Imported as a module (a tool walking civrules' modules), it runs nothing.
"""

from civrules.cli import main

if __name__ == "__main__":
    main()
