"""Vijayanagara (GMT Games, 2023): its rules engine, data, records and report sections."""
