"""Tests of the Binder configuration (binder/)."""
