"""The knowledge base and a finished lesson, as the scoring tests have them."""

from tests.scoring.conftest import finished_session, play_as_students  # noqa: F401
