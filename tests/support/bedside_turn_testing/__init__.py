"""Test doubles for the turn service: a small book, search and player responders, a scripted model.

They live with the tests (the service ships none); tests and benchmarks share them. The responders answer the
real subjects on a real nats-server with replies built by the guard, as the real
services would; the scripted model stands in for AsyncAnthropic.
"""
