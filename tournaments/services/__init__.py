"""Service functions: every write of the tournament domain goes through one of these.

Each checks who may do it, validates its input with a clear message (``ServiceError``) and
changes nothing unless everything is valid (one transaction per call).
"""
