"""handeval's service side: the wire layer (``wire``), the gRPC server (``server``), its
typed client (``client``) and the CLI (``cli``), started through ``launcher``."""
