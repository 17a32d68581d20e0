"""Real-browser checks of what JupyterLab renders (see check_jupyterlab.py)."""
