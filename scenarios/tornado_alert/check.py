"""Tornado Alert!'s knowledge check (``scenarios.kit.CheckBank``): tornado safety, in three
objectives and two parallel forms. The game rewards photos from the riskiest places; the check
asks where a student really goes when a warning sounds — underground if they can, otherwise a
small inside room on the lowest floor, and out of the car and into a building. Every item rests
on the Weather Service's tornado advice (verified facts of ``scoring/outcomes``); wrong answers
are the myths and habits people act on (open the windows, shelter under a bridge, outrun it by
car, watch it from the porch)."""

from django.utils.translation import gettext_lazy as _

from scenarios.kit import Ask, CheckBank, Objective, form

UNDERGROUND, INSIDE, OUTSIDE = "underground", "inside", "outside"

CHECK = CheckBank(
    objectives=(
        Objective(
            UNDERGROUND,
            _("When a tornado threatens, go underground if you can: a basement, a storm cellar or a safe room."),
        ),
        Objective(
            INSIDE,
            _(
                "With no basement, choose a small room in the middle of the lowest floor, away "
                "from windows, and cover your head."
            ),
        ),
        Objective(
            OUTSIDE,
            _(
                "Outside or in a car, get into a sturdy building: a car or a bridge is no "
                "shelter, and a ditch is the last resort."
            ),
        ),
    ),
    items=form(
        "A",
        Ask(
            "basement",
            UNDERGROUND,
            "tornado-shelter-underground",
            _("A tornado warning sounds. Your home has a basement. Where do you go?"),
            _("Down to the basement"),
            (_("The kitchen, by the back door"), _("The porch, to see where it is")),
        ),
        Ask(
            "first-choice",
            UNDERGROUND,
            "tornado-shelter-underground",
            _("Which place gives the best protection from a tornado, if you can reach it in time?"),
            _("Underground: a basement or a storm cellar"),
            (_("An upstairs room, above the flying debris"), _("A big open room, like a gym")),
        ),
        Ask(
            "no-basement",
            INSIDE,
            "tornado-interior-room",
            _("A tornado warning sounds. Your home has no basement. Where do you go?"),
            _("A small inside room on the lowest floor, like a closet"),
            (
                _("An upstairs bedroom, under the bed, away from the door"),
                _("The garage, next to the car, where the walls are thick"),
            ),
        ),
        Ask(
            "windows",
            INSIDE,
            "tornado-interior-room",
            _("You are in your room when the warning sounds. Should you open the windows to let the pressure out?"),
            _("No: stay away from windows and go to an inside room"),
            (
                _("Yes: it stops the air pressure from bursting the house"),
                _("Yes, but just on the side facing the storm"),
            ),
        ),
        Ask(
            "apartment",
            INSIDE,
            "tornado-interior-room",
            _(
                "Your apartment is on the third floor of a building with no basement. A tornado warning "
                "sounds. What is best?"
            ),
            _("Go down to an inside hallway on the lowest floor"),
            (_("Stay in the apartment and watch from the window"), _("Go up to the roof to see it coming")),
        ),
        Ask(
            "store-nearby",
            OUTSIDE,
            "tornado-vehicles",
            _("Your family is driving when a tornado appears ahead. A sturdy store is close by. What do you do?"),
            _("Get into the store and shelter inside"),
            (_("Stay in the car: it has a roof and doors"), _("Try to outrun the tornado")),
        ),
        Ask(
            "last-resort",
            OUTSIDE,
            "tornado-vehicles",
            _("You are in a park with no building nearby when a tornado comes. What is the last resort?"),
            _("Lie flat in a ditch or low spot and cover your head"),
            (_("Stand close to the trunk of the biggest tree in the park"), _("Keep running across the open field")),
        ),
        Ask(
            "outrun",
            OUTSIDE,
            "tornado-vehicles",
            _("Your older cousin says a car can always outrun a tornado on a straight road. What is true?"),
            _("A car cannot be relied on: get into a sturdy building"),
            (
                _("He is right, as long as the road ahead is empty"),
                _("He is right if you drive away from it at top speed"),
            ),
        ),
    )
    + form(
        "B",
        Ask(
            "basement",
            UNDERGROUND,
            "tornado-shelter-underground",
            _(
                "At your grandparents' farm there is a storm cellar behind the house and a big living room "
                "with windows. A tornado warning sounds. Where do you go?"
            ),
            _("The storm cellar"),
            (_("The living room: it is the biggest room"), _("The car, to drive to town")),
        ),
        Ask(
            "first-choice",
            UNDERGROUND,
            "tornado-shelter-underground",
            _("Which shelter does the Weather Service's tornado advice put first?"),
            _("Underground: a basement, storm cellar or safe room"),
            (_("The top floor of a strong building, above the debris"), _("Any room, as long as the windows are open")),
            kind="recall",
        ),
        Ask(
            "no-basement",
            INSIDE,
            "tornado-interior-room",
            _("At school, a tornado warning sounds. Which place is safest?"),
            _("An inside hallway on the lowest floor"),
            (_("The gym, where the whole school fits together"), _("The classroom by the big windows")),
        ),
        Ask(
            "windows",
            INSIDE,
            "tornado-interior-room",
            _("You are in an inside room during a tornado warning. What else helps protect you?"),
            _("Covering your head"),
            (_("Standing by the door to watch"), _("Opening a window a little")),
        ),
        Ask(
            "apartment",
            INSIDE,
            "tornado-interior-room",
            _("With no basement, the Weather Service advises a small room…"),
            _("In the middle of the lowest floor, away from windows"),
            (_("On the top floor, with a window to climb out"), _("Against an outside wall, near the door")),
            kind="recall",
        ),
        Ask(
            "store-nearby",
            OUTSIDE,
            "tornado-vehicles",
            _("A tornado warning is issued while your family is in the car park of a big store. What do you do?"),
            _("Go into the store's shelter area"),
            (_("Stay in the car and wait it out"), _("Drive home as fast as you can")),
        ),
        Ask(
            "last-resort",
            OUTSIDE,
            "tornado-vehicles",
            _("Your family's car is caught near a tornado and no building is near. What is the last resort?"),
            _("Lie in a ditch or low spot, covering your head"),
            (_("Crawl under the car, where the wind cannot reach"), _("Drive under a bridge and wait")),
        ),
        Ask(
            "outrun",
            OUTSIDE,
            "tornado-vehicles",
            _("You are on a highway and a tornado is coming. There is a bridge ahead. Should you shelter under it?"),
            _("No: a bridge or overpass is not a shelter"),
            (_("Yes: the bridge keeps the wind off you"), _("Yes, if you climb up high under it")),
        ),
    ),
)
