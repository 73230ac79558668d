"""handeval's service side: the gRPC server, its typed client and the CLI."""
