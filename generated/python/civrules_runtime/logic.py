"""Moved: the rule logic of the Advanced Civilization family live in
``civrules_runtime_advanced_civilization.logic``; their names stay importable from here for now."""

TYPE_CHECKING = False
if not TYPE_CHECKING:

    def __getattr__(name: str) -> object:
        from . import _moved

        return _moved.attribute(__name__, name, "logic")
