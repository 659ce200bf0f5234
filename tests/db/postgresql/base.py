"""Django's PostgreSQL backend, except that a flush deletes every table's rows instead of
truncating the tables.

Each transactional test ends with a flush (pytest-django does as Django's
``TransactionTestCase``). TRUNCATE gives every table and index new files: about 50 ms of the
machine's CPU for this project's tables, against about 1 ms for DELETE on a test's few rows
(docs/decisions/0011-test-suite-time.md). Django makes its foreign keys deferred, so the rows
may go in any order within the flush's one transaction. Sequences are not reset, as Django's
TRUNCATE does not reset them either; a flush asked to reset them truncates as before."""

from django.db.backends.postgresql import base, operations


class DatabaseOperations(operations.DatabaseOperations):
    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences:
            return super().sql_flush(style, tables, reset_sequences=True, allow_cascade=allow_cascade)
        return [f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};" for table in tables]


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
