"""Player aids of the Imperial Settlers family."""
