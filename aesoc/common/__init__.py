"""The lowest layer: external tools, build folders, locks and logs; the exit-status table."""
