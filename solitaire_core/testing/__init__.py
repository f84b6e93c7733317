"""Rule-conformance kit for variant authors (pytest plugin, state machine, scenarios)."""
