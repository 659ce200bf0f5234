from django import forms
from django.utils.translation import gettext_lazy as _

from classroom import regions
from scenarios import registry


class SignUpForm(forms.Form):
    """A new teacher gives an e-mail address; the password is chosen from the link sent to it, so
    nobody can take an address that is not theirs, and the answer never says whether it has an
    account already."""

    email = forms.EmailField(
        label=_("E-mail address"),
        max_length=254,
        widget=forms.EmailInput(attrs={"autocomplete": "email", "autofocus": True}),
    )

    def clean_email(self):
        from classroom.accounts import signup_allowed_for

        email = self.cleaned_data["email"].strip().lower()
        if not signup_allowed_for(email):
            raise forms.ValidationError(_("Accounts here are only for this school's e-mail addresses."), code="domain")
        return email


class SessionForm(forms.Form):
    """A new lesson: scenario, tables, bots, timers, names and the engine's own options."""

    title = forms.CharField(
        label=_("Title (optional)"),
        max_length=80,
        required=False,
        widget=forms.TextInput(attrs={"placeholder": _("Period 3 · Science")}),
    )
    scenario = forms.ChoiceField(label=_("Scenario"), choices=())
    seats_per_table = forms.IntegerField(label=_("Seats per table"), min_value=2, max_value=6, initial=4)
    fill_with_bots = forms.BooleanField(label=_("Fill empty seats with bots"), initial=True, required=False)
    turn_timer = forms.BooleanField(label=_("A bot plays for a student who stays idle"), initial=True, required=False)
    turn_seconds = forms.IntegerField(
        label=_("Seconds before an idle seat is played"),
        min_value=15,
        max_value=600,
        initial=120,
        help_text=_(
            "About two minutes suits a 10-year-old. Each student's clock starts with their first "
            "move; the tablet warns 20 seconds before a bot steps in and offers “More time”, and "
            "the bot then plays that student's whole turn."
        ),
    )
    region = forms.ChoiceField(
        label=_("Where the class lives"),
        choices=(),
        initial="us_gulf",
        help_text=_(
            "The family plan and printables use this region's emergency number, alerts, "
            "official sites, units and paper size. The games stay on the US Gulf coast."
        ),
    )
    names = forms.ChoiceField(label=_("Nicknames"), choices=(), initial="approve", widget=forms.RadioSelect)
    intensity = forms.ChoiceField(
        label=_("What students read about deaths"),
        choices=(),
        initial="gentle",
        widget=forms.RadioSelect,
        help_text=_(
            "Gentle shows no death toll anywhere: tablets, cards, printables, reports and the family "
            "plan. Frank shows them where a checked fact has one, from age 13."
        ),
    )
    age_band = forms.ChoiceField(
        label=_("Youngest students in the class"),
        choices=(),
        initial="10+",
        help_text=_("Facts written for older students are left out everywhere students look."),
    )
    max_participants = forms.IntegerField(
        label=_("Most students who may join"),
        min_value=1,
        max_value=200,
        initial=40,
        help_text=_(
            "A device that plays for several students counts once. You can change it, or lock "
            "joining, on the session page."
        ),
    )
    seed = forms.IntegerField(
        label=_("Game number (optional)"),
        required=False,
        min_value=0,
        max_value=2**48,
        help_text=_(
            "The same number deals the same dice, cards and storm. Leave it "
            "empty for a fresh game; type an earlier session's number to play "
            "the very same game with another class."
        ),
    )

    def __init__(self, *args, scenario_options=None, scenario_presets=None, **kwargs):
        from classroom.models import AGE_BAND_CHOICES, Session, preset_label

        super().__init__(*args, **kwargs)
        self.fields["scenario"].choices = registry.choices()
        self.scenarios = registry.all()
        self.fields["names"].choices = Session.Names.choices
        self.fields["intensity"].choices = Session.Intensity.choices
        self.fields["age_band"].choices = [
            (band, _("%(band)s years") % {"band": band}) for band, _label in AGE_BAND_CHOICES
        ]
        self.fields["region"].choices = regions.choices()
        self.scenario_options = scenario_options or {}
        self.scenario_presets = {k: v for k, v in (scenario_presets or {}).items() if v}
        # One "Rules" choice per scenario that has presets; a scenario without any plays its
        # tuned defaults and shows no choice.
        self.preset_fields = []
        for scenario, named in self.scenario_presets.items():
            field = forms.ChoiceField(
                label=_("Rules"),
                required=False,
                initial="",
                widget=forms.RadioSelect,
                choices=[("", preset_label(""))] + [(key, preset_label(key)) for key in named],
                help_text=_(
                    "The default is tuned for a lesson. "
                    "“As printed” plays and scores exactly as the rule book, so you "
                    "can check the totals by hand; it sets the options it names."
                ),
            )
            field.preset_for = scenario
            self.fields[f"{scenario}__preset"] = field
            self.preset_fields.append(self[f"{scenario}__preset"])
        self.engine_fields = []
        # the classroom's own options of a scenario (one storm for the class, say), shown with it
        for scenario in registry.all():
            for option in scenario.session_options:
                name = f"{scenario.key}__{option['name']}"
                field = forms.BooleanField(
                    label=option["label"], help_text=option.get("help", ""), initial=option["default"], required=False
                )
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
                    # not required: another scenario's fields are on the page too, and an empty
                    # choice plays the engine's default
                    shown = {
                        c: _(label) for c, label in option.get("choice_labels", {}).items()
                    }  # gettext_noop'd by the engine
                    shown.update(registry.get(scenario).choice_labels.get(option["name"], {}))
                    field = forms.ChoiceField(
                        choices=[(str(c), shown.get(c, str(c))) for c in choices],
                        initial=str(option["default"]),
                        required=False,
                    )
                else:
                    continue
                # the engine marks its words with gettext_noop: translated where the form is shown
                field.label = (
                    _(option["label"]) if option.get("label") else option["name"].replace("_", " ").capitalize()
                )
                field.help_text = _(option["description"]) if option.get("description") else ""
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
                self.add_error(
                    "seats_per_table",
                    _("This scenario's tables seat %(fewest)d to %(most)d players.") % {"fewest": fewest, "most": most},
                )
        preset = self.preset() if key else ""
        if preset:
            specs = {o["name"]: o for o in self.scenario_options.get(key, [])}
            for name, value in self.scenario_presets[key][preset].items():
                spec = specs.get(name)
                if spec is None or ("choices" in spec and value not in spec["choices"]):
                    self.add_error(
                        f"{key}__preset",
                        forms.ValidationError(
                            _("This scenario's preset names an option it does not have."), code="bad_preset"
                        ),
                    )
                    break
        return cleaned

    #: the fields ``services.create_session`` takes as they are
    SESSION_FIELDS = (
        "scenario",
        "title",
        "seats_per_table",
        "fill_with_bots",
        "turn_timer",
        "turn_seconds",
        "names",
        "seed",
        "max_participants",
        "intensity",
        "age_band",
        "region",
    )

    def session_fields(self) -> dict:
        """What ``services.create_session`` takes from the valid form (with its options and preset)."""
        fields = {name: self.cleaned_data[name] for name in self.SESSION_FIELDS}
        return {**fields, "options": self.engine_options(), "preset": self.preset()}

    def preset(self):
        """The chosen scenario's preset key ("" for its tuned defaults)."""
        scenario = self.cleaned_data.get("scenario")
        preset = self.cleaned_data.get(f"{scenario}__preset") or ""
        return preset if preset in self.scenario_presets.get(scenario, {}) else ""

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
            if value in ("", None) and not isinstance(default, bool):
                value = default
            if isinstance(default, bool):
                value = bool(value)
            elif isinstance(default, int):
                value = int(value)
            options[option["name"]] = value
        return options


class JoinForm(forms.Form):
    code = forms.CharField(
        label=_("Lesson code"),
        max_length=20,
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "autocapitalize": "characters",
                "spellcheck": "false",
                "inputmode": "text",
                "placeholder": "ABC-DEF",
            }
        ),
    )
    nickname = forms.CharField(
        label=_("Nickname"),
        max_length=40,
        required=False,
        help_text=_("A first name or a made-up name. Please don't use your full name."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )
    players = forms.TypedChoiceField(
        label=_("Players on this tablet"), coerce=int, initial=1, choices=[(1, "1"), (2, "2"), (3, "3"), (4, "4")]
    )
