"""milab-widgets."""
