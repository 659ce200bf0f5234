"""Django's PostgreSQL backend, except that a flush deletes every table's rows instead of
truncating the tables.

Each transactional test ends with a flush (pytest-django does as Django's
``TransactionTestCase``). TRUNCATE gives every table and index new files: about 50 ms of the
machine's CPU for this project's tables, against about 1 ms for DELETE on a test's few rows
(docs/decisions/0011-test-suite-time.md). Django makes its foreign keys deferred, so the rows
may go in any order within the flush's one transaction. Sequences are not reset, as Django's
TRUNCATE does not reset them either; a flush asked to reset them truncates as before.

The rows every test starts from are kept: the content types and permissions Django writes after
each migration and flush, and the facts the data migration loads. Writing them all again after
every flush was a third of its cost: 44 ms of Python's and PostgreSQL's CPU a flush, against 28 ms
with them kept. The flush's ``post_migrate`` finds them in place and puts the facts back as their
files say (``tests.conftest._facts_after_every_flush``), so a test that changed one leaves no
trace."""

from django.db.backends.postgresql import base, operations

#: Written by migrations and after every flush, the same for every test.
KEPT = {"django_content_type", "auth_permission", "scoring_fact"}


class DatabaseOperations(operations.DatabaseOperations):
    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences:
            return super().sql_flush(style, tables, reset_sequences=True, allow_cascade=allow_cascade)
        return [
            f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};"
            for table in tables
            if table not in KEPT
        ]


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
