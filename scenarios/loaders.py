"""Django finds each installed scenario's templates and static files in its own folder.

A template named ``scenarios/<key>/<file>`` is ``<package>/templates/<file>``; a static file
``scenarios/<key>/<file>`` is ``<package>/static/<file>``. Both follow the registry line, so
registering a scenario is all it takes (``collectstatic`` and whitenoise use the finder).
"""

from __future__ import annotations

from django.contrib.staticfiles.finders import FileSystemFinder
from django.core.exceptions import SuspiciousFileOperation
from django.core.files.storage import FileSystemStorage
from django.template import Origin
from django.template.loaders.filesystem import Loader as FileSystemLoader
from django.utils._os import safe_join

from scenarios import registry

PREFIX = "scenarios/"


class TemplateLoader(FileSystemLoader):
    """Templates ``scenarios/<key>/<file>`` from the scenario's ``templates`` folder."""

    def get_dirs(self):
        # what the development server's autoreloader watches
        return [scenario.folder / "templates" for scenario in registry.all()]

    def get_template_sources(self, template_name):
        if not template_name.startswith(PREFIX):
            return
        key, _, rest = template_name[len(PREFIX) :].partition("/")
        if key not in registry.keys() or not rest:
            return
        try:
            name = safe_join(registry.get(key).folder / "templates", rest)
        except SuspiciousFileOperation:  # "..": nothing outside the scenario's folder
            return
        yield Origin(name=name, template_name=template_name, loader=self)


class StaticFinder(FileSystemFinder):
    """Static files ``scenarios/<key>/<file>`` from the scenario's ``static`` folder."""

    def __init__(self, app_names=None, *args, **kwargs):
        self.locations = []
        self.storages = {}
        for scenario in registry.all():
            root = scenario.folder / "static"
            if not root.is_dir():
                continue
            prefix = f"{PREFIX}{scenario.key}"
            self.locations.append((prefix, str(root)))
            storage = FileSystemStorage(location=str(root))
            storage.prefix = prefix
            self.storages[str(root)] = storage

    def check(self, **kwargs):
        return []
