"""Renderers: one per output format, all over the same views and matches."""
