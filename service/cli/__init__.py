"""The command line: handeval serve | eval | showdown | games | load, and rendering for people."""
