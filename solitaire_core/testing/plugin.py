"""pytest plugin entry point of the conformance kit (registered under pytest11)."""
