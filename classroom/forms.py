from django import forms
from django.contrib.auth import password_validation
from django.utils.translation import gettext_lazy as _

from scenarios import registry

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


class SessionForm(forms.Form):
    """A new lesson: scenario, tables, bots, timers, names and the engine's own options."""

    title = forms.CharField(label=_("Title (optional)"), max_length=80, required=False,
                            widget=forms.TextInput(attrs={"placeholder": _("Period 3 · Science")}))
    scenario = forms.ChoiceField(label=_("Scenario"), choices=())
    seats_per_table = forms.IntegerField(label=_("Seats per table"), min_value=2, max_value=6, initial=4)
    fill_with_bots = forms.BooleanField(label=_("Fill empty seats with bots"), initial=True, required=False)
    turn_timer = forms.BooleanField(label=_("A bot plays for a student who stays idle"), initial=True, required=False)
    turn_seconds = forms.IntegerField(label=_("Seconds before an idle seat is played"), min_value=15,
                                      max_value=600, initial=60)
    names = forms.ChoiceField(label=_("Nicknames"), choices=(), initial="approve",
                              widget=forms.RadioSelect)
    seed = forms.IntegerField(label=_("Seed (optional: the same seed replays the same dice)"),
                              required=False, min_value=0, max_value=2**48)
    def __init__(self, *args, scenario_options=None, **kwargs):
        from classroom.models import Session

        super().__init__(*args, **kwargs)
        self.fields["scenario"].choices = registry.choices()
        self.scenarios = registry.all()
        self.fields["names"].choices = Session.Names.choices
        self.engine_fields = []
        # the classroom's own options of a scenario (one storm for the class, say), shown with it
        for scenario in registry.all():
            for option in scenario.session_options:
                name = f"{scenario.key}__{option['name']}"
                field = forms.BooleanField(label=option["label"], help_text=option.get("help", ""),
                                           initial=option["default"], required=False)
                field.scenario = scenario.key
                field.session_option = True
                self.fields[name] = field
                self.engine_fields.append((scenario.key, option, name))
        for scenario, options in (scenario_options or {}).items():
            managed = registry.get(scenario).managed_options  # set per table, not by the teacher
            for option in options:
                if option["name"] in managed:
                    continue
                name = f"{scenario}__{option['name']}"
                choices = option.get("choices")
                if isinstance(option.get("default"), bool):
                    field = forms.BooleanField(required=False, initial=option["default"])
                elif choices:
                    field = forms.ChoiceField(choices=[(str(c), str(c)) for c in choices],
                                              initial=str(option["default"]))
                else:
                    continue
                field.label = option.get("label") or option["name"].replace("_", " ").capitalize()
                field.help_text = option.get("description", "")
                field.scenario = scenario
                self.fields[name] = field
                self.engine_fields.append((scenario, option, name))

    def clean(self):
        cleaned = super().clean()
        key = cleaned.get("scenario")
        seats = cleaned.get("seats_per_table")
        if key in registry.keys() and seats is not None:
            scenario = registry.get(key)
            fewest, most = scenario.seats
            if not fewest <= seats <= most:
                self.add_error("seats_per_table", _("This scenario's tables seat %(fewest)d to %(most)d players.")
                               % {"fewest": fewest, "most": most})
        return cleaned

    def engine_options(self):
        """The chosen scenario's options (the engine's and the classroom's own), typed like their
        defaults."""
        scenario = self.cleaned_data["scenario"]
        options = {}
        for owner, option, name in self.engine_fields:
            if owner != scenario:
                continue
            value = self.cleaned_data.get(name)
            default = option.get("default")
            if isinstance(default, bool):
                value = bool(value)
            elif isinstance(default, int):
                value = int(value)
            options[option["name"]] = value
        return options


class JoinForm(forms.Form):
    code = forms.CharField(label=_("Lesson code"), max_length=20,
                           widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters",
                                                         "spellcheck": "false", "inputmode": "text",
                                                         "placeholder": "ABC-DEF"}))
    nickname = forms.CharField(label=_("Nickname"), max_length=40, required=False,
                               help_text=_("A first name or a made-up name. Please don't use your full name."),
                               widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}))
    players = forms.TypedChoiceField(label=_("Players on this tablet"), coerce=int, initial=1,
                                     choices=[(1, "1"), (2, "2"), (3, "3"), (4, "4")])
