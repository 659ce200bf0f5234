from django import forms
from django.contrib.auth import password_validation
from django.utils.translation import gettext_lazy as _

from .models import Teacher


class SignUpForm(forms.ModelForm):
    """A new teacher: e-mail and a password checked by Django's validators."""

    password1 = forms.CharField(
        label=_("Password"), strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html(),
    )
    password2 = forms.CharField(
        label=_("Password again"), strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    class Meta:
        model = Teacher
        fields = ["email"]
        widgets = {"email": forms.EmailInput(attrs={"autocomplete": "email", "autofocus": True})}

    def clean_email(self):
        email = self.cleaned_data["email"].strip().lower()
        if Teacher.objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(
                _("An account with this e-mail already exists. Sign in instead, or use another address."),
                code="duplicate_email",
            )
        return email

    def clean(self):
        cleaned = super().clean()
        first, second = cleaned.get("password1"), cleaned.get("password2")
        if first and second and first != second:
            self.add_error("password2", _("The two passwords do not match."))
        if first:
            probe = Teacher(email=cleaned.get("email", ""))
            try:
                password_validation.validate_password(first, probe)
            except forms.ValidationError as error:
                self.add_error("password1", error)
        return cleaned

    def save(self, commit=True):
        teacher = super().save(commit=False)
        teacher.set_password(self.cleaned_data["password1"])
        if commit:
            teacher.save()
        return teacher
