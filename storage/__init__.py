"""Persistence: typed SQLAlchemy models, engine set-up, repository functions and importers.

Repository functions take the session first and never commit: the caller owns the transaction.
"""
