"""Format specs: the YAML that says what a legal deck is, loaded into pydantic models."""
