"""The app's full screens."""
