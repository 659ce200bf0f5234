"""Django's PostgreSQL backend for the test suite, with a cheaper flush (``base``)."""
