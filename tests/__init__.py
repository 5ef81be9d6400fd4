"""The tests: run with `make test`; what they share is in tests/helpers."""
