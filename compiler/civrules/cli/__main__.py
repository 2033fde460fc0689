"""`python -m civrules.cli` runs the command line, as `python -m civrules` and `civrules` do: through
the program's entry point (civrules.launch), which reports a failure at start, has stop signals
end it as R016 and ends the process itself.

Without this module the package `civrules.cli` ran as a script would import and exit silently.
Imported as a module (a tool walking civrules' modules), it runs nothing.
"""

if __name__ == "__main__":
    from civrules.launch import main

    main()
