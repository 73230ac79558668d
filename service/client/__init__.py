"""The client side: the typed client and the load generator (never imports server/)."""
