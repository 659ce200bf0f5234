"""A finished lesson, as the scoring tests have it."""

from tests.scoring.conftest import finished_session, play_as_students  # noqa: F401
