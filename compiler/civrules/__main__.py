"""`python -m civrules` runs the command line."""

from civrules.cli import main

main()
