from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from .forms import SignUpForm


def signup(request):
    if request.user.is_authenticated:
        return redirect("classroom:home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        teacher = form.save()
        login(request, teacher, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome to Stormwise! Your account is ready."))
        return redirect("classroom:home")
    return render(request, "registration/signup.html", {"form": form})


@login_required
def home(request):
    return render(request, "classroom/home.html", {"sessions": []})
