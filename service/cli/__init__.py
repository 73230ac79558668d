"""The command line for people: handeval eval | showdown | odds | games | load | protos, and
rendering for people. ``handeval serve`` comes from ``service.launcher``."""
