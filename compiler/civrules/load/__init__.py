"""Loading rule files: safe, position-keeping YAML reading."""

from civrules.load.document import Document, NodePath
from civrules.load.reader import Limits, read_yaml_bytes, read_yaml_file, read_yaml_text

__all__ = ["Document", "Limits", "NodePath", "read_yaml_bytes", "read_yaml_file", "read_yaml_text"]
