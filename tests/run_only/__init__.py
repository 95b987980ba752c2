"""A folder put on PYTHONPATH by tests/test_run_dependencies.py (see sitecustomize.py)."""
