"""Poker lookup tables: built from the rules by named functions, once per process.

``poker_tables()`` is the one entry point for the evaluators; ``table_info()`` reports
each table's size and the build time for the service.
"""

from evaluators.tables.poker_tables import PokerTables, TableInfo, poker_tables, table_info

__all__ = ["PokerTables", "TableInfo", "poker_tables", "table_info"]
