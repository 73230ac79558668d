"""The server side: wire <-> core, transport, limits, metrics and lifecycle."""
