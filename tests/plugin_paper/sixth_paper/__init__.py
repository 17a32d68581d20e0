"""A sixth paper for milab-widgets, registered through the ``milab_widgets.papers`` entry
points like any plugin (a test fixture; see this folder's README)."""
