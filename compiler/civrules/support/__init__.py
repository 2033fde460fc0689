"""What every stage uses: guarded file access, signal handling, the user cache."""
