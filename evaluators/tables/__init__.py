"""Poker lookup tables: built from the rules by named functions, once per process.

``poker_tables()`` is the one entry point for the evaluators; ``table_info()`` reports
each table built so far (its size and its own build time) for the service.
"""

from evaluators.tables.builds import TableInfo, table_info
from evaluators.tables.poker_tables import PokerTables, poker_tables

__all__ = ["PokerTables", "TableInfo", "poker_tables", "table_info"]
