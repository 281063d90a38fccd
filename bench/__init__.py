"""Benchmarks that write their numbers to bench-results/ (not timed unit tests)."""
