"""The checks of the example-dice family (every module here registers its checks)."""
