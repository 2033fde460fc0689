"""`python -m compiler` runs the command line."""

from compiler.cli import main

main()
