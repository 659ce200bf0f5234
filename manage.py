#!/usr/bin/env python
import os
import sys


def serve_address_into_environment(argv):
    """`manage.py serve --host H --port P`: settings decide DEBUG, ALLOWED_HOSTS and the public
    address from HOST and PORT, and they load before the command parses its own options."""
    if len(argv) > 1 and argv[1] == "serve":
        import argparse

        parser = argparse.ArgumentParser(add_help=False)
        parser.add_argument("--host")
        parser.add_argument("--port")
        known, _rest = parser.parse_known_args(argv[2:])
        if known.host is not None:
            os.environ["HOST"] = known.host
        if known.port is not None:
            os.environ["PORT"] = known.port


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    serve_address_into_environment(sys.argv)
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
