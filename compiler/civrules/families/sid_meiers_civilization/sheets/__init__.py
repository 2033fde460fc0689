"""Player aids of the Sid Meier's Civilization family."""
