"""Reports: violation records and the renderers that print them (text, json)."""
