"""Code intelligence over the Language Server Protocol (lesson 16): a JSON-RPC client, the servers
that handle each language, and the errors an edit introduced."""
