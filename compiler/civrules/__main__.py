"""`python -m civrules` runs the command line.

Started by a Python that lacks civrules' dependencies (`python3 -m civrules` in a clone before
`make`), it says what to run instead of printing a traceback.
"""

import sys

import civrules.support.bytecode  # noqa: F401 - first: no bytecode under a file-size limit

try:
    from civrules.cli import main
except ModuleNotFoundError as error:
    from civrules.support.install import clone_command, python, reinstall

    then = clone_command()
    print(
        f"civrules: error: the module `{error.name}` is not installed for this Python ({python()})\n"
        f"hint: install civrules with its dependencies: `{reinstall()}`" + (f", then run `{then}`" if then else ""),
        file=sys.stderr,
    )
    sys.exit(2)

main()
