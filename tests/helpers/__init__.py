"""What the tests share: games set up by hand, drivers of the app, terminals, servers and limits.

Every test module imports these one way, `from tests.helpers.<module> import ...`, and no test
module imports another (tests/test_layout.py checks both).
"""
