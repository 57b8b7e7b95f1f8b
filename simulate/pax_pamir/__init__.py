"""Pax Pamir: Second Edition (Cole Wehrle / Wehrlegig Games): its data, loaded and checked once."""
