"""The checks of the Imperial Settlers family (code prefix F)."""
