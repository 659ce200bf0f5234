import pytest
from django.urls import reverse

from classroom.models import Teacher
from tests.factories import PASSWORD, make_teacher

pytestmark = pytest.mark.django_db


def test_signup_creates_teacher_and_signs_in(client):
    """A new teacher signs up with e-mail and password and lands on their home page."""
    response = client.post(reverse("signup"), {
        "email": "New.Teacher@School.test", "password1": PASSWORD, "password2": PASSWORD,
    }, follow=True)
    assert response.redirect_chain[-1][0] == reverse("classroom:home")
    assert Teacher.objects.filter(email="new.teacher@school.test").exists()
    assert response.context["user"].is_authenticated
    assert b"No sessions yet" in response.content


def test_duplicate_email_gets_clear_message(client):
    """Signing up twice with one address (in any case) is refused with a message, no account."""
    make_teacher(email="ms.rivera@school.test")
    response = client.post(reverse("signup"), {
        "email": "MS.Rivera@school.test", "password1": PASSWORD, "password2": PASSWORD,
    })
    assert response.status_code == 200
    assert "An account with this e-mail already exists" in response.content.decode()
    assert Teacher.objects.count() == 1


def test_weak_or_mismatched_password_refused(client):
    """Django's validators apply: a common password and a mismatch are both explained."""
    response = client.post(reverse("signup"), {"email": "a@school.test", "password1": "password", "password2": "password"})
    assert "too common" in response.content.decode()
    response = client.post(reverse("signup"), {"email": "a@school.test", "password1": PASSWORD, "password2": PASSWORD + "x"})
    assert "do not match" in response.content.decode()
    assert not Teacher.objects.exists()


def test_wrong_password_gets_clear_message(client):
    """A wrong password does not sign in and says so."""
    make_teacher(email="t@school.test")
    response = client.post(reverse("login"), {"username": "t@school.test", "password": "nope-nope-nope"})
    assert response.status_code == 200
    assert "Please enter a correct e-mail address and password" in response.content.decode()
    assert not response.wsgi_request.user.is_authenticated


def test_home_needs_sign_in(client):
    """The teacher home page sends a visitor to sign in."""
    response = client.get(reverse("classroom:home"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_password_change(client):
    """A signed-in teacher changes their password and can sign in with the new one only."""
    teacher = make_teacher()
    client.force_login(teacher)
    new = "another-good-passphrase-9"
    response = client.post(reverse("password_change"), {
        "old_password": PASSWORD, "new_password1": new, "new_password2": new}, follow=True)
    assert b"Password changed" in response.content
    teacher.refresh_from_db()
    assert teacher.check_password(new) and not teacher.check_password(PASSWORD)
