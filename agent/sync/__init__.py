"""CalDAV sync: the SQLite store stays the working copy; a CalDAV server is kept in step with it.

``accounts`` (servers, discovery, which remote calendar feeds which local one), ``secrets``
(passwords in the OS keyring), ``remote`` (the requests a sync sends, over the ``caldav``
client, behind a small interface), ``davxml`` (the WebDAV documents and a strict reading of
the answers), ``resources`` (VCALENDAR resources <-> stored rows, hashes), ``state`` (what
was last synced, how local changes are found), ``conflicts`` and ``engine`` (the run
itself). See docs/sync.md.
"""

from __future__ import annotations
