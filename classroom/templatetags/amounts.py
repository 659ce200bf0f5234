"""``{{ value|money }}`` and ``{{ value|number }}``: an amount in US dollars or a number as the
active language writes it, the same way the tablets do (``scenarios.words.money``/``number``)."""

from django import template

from scenarios import words

register = template.Library()


@register.filter
def money(value):
    return "" if value in (None, "") else words.money(value)


@register.filter
def number(value):
    return "" if value in (None, "") else words.number(value)
