"""The calendar area: day/week/month/agenda views, navigation, calendars sidebar, editor.

Views only read (through one cached query per visible range, ``event_source.py``) and
ask ``CalendarArea`` to write, which goes through ``ctx.ops`` so every change is undoable
and every view refreshes from the same ``changed`` signal. See docs/app-calendar.md.
"""
