"""Code generated from the contract (``protos/``) at build: ``handeval_client/setup.py``."""
