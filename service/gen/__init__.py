"""Code generated at build from the benchmarks' internal proto (setup.py); the contract's own is
``handeval_client.gen``."""
